// Behaviour of src/base/errors.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  clip,
  errorMessage,
  hideQueryValues,
  withoutQuery,
} from "../../../src/base/errors.ts";

Deno.test("withoutQuery: Drops the query string and fragment of a URL: pre-signed URLs carry their credentials there", () => {
  strictEqual(
    withoutQuery("https://s3.example/b/k?X-Amz-Signature=abc"),
    "https://s3.example/b/k",
  );
});

Deno.test("hideQueryValues: `text` with the values of `url`'s credential parameters blanked out (a signature,…", () => {
  const url =
    "https://s3.example/b/k?X-Amz-Expires=3600&X-Amz-Signature=0f1e2d3c4b5a";
  strictEqual(
    hideQueryValues(
      "Bad signature in /b/k?X-Amz-Expires=3600&X-Amz-Signature=0f1e2d3c4b5a",
      url,
    ),
    "Bad signature in /b/k?X-Amz-Expires=3600&X-Amz-Signature=***",
  );
});

Deno.test("clip: `text` cut in the middle to at most 200 characters, for one-line messages", () => {
  strictEqual(clip("a".repeat(500)).length, 200);
  strictEqual(clip("short"), "short");
});

Deno.test("errorMessage: The message of whatever was thrown: an `Error`'s `message`, anything else as a string", () => {
  strictEqual(errorMessage(new RangeError("too far")), "too far");
  strictEqual(errorMessage("plain words"), "plain words");
});

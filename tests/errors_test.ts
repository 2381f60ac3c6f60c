import { strictEqual } from "node:assert/strict";
import {
  clip,
  errorMessage,
  hideQueryValues,
  withoutQuery,
} from "../src/base/errors.ts";

Deno.test("withoutQuery drops query and fragment", () => {
  strictEqual(
    withoutQuery("https://s3.example/b/k?X-Amz-Signature=abc"),
    "https://s3.example/b/k",
  );
});

Deno.test("hideQueryValues blanks credential values", () => {
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

Deno.test("clip cuts in the middle", () => {
  strictEqual(clip("a".repeat(500)).length, 200);
  strictEqual(clip("short"), "short");
});

Deno.test("errorMessage of anything thrown", () => {
  strictEqual(errorMessage(new RangeError("too far")), "too far");
  strictEqual(errorMessage("plain words"), "plain words");
});

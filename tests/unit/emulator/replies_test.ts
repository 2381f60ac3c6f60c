// Behaviour of src/emulator/replies.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  clientGone,
  envelopeError,
  failureReply,
  jsonReply,
  xmlError,
} from "../../../src/emulator/replies.ts";

Deno.test("jsonReply: A 200 JSON answer from pre-encoded bytes", async () => {
  const response = jsonReply(
    new TextEncoder().encode('{"status":"OK","data":[]}'),
  );
  strictEqual(response.headers.get("content-type"), "application/json");
  deepStrictEqual(await response.json(), { status: "OK", data: [] });
});

Deno.test('envelopeError: The repository\'s error envelope, `{"status":"ERROR","message":...}`', async () => {
  const response = envelopeError(401, "Bad API key");
  strictEqual(response.status, 401);
  deepStrictEqual(await response.json(), {
    status: "ERROR",
    message: "Bad API key",
  });
});

Deno.test("xmlError: An S3-style XML error", async () => {
  const response = xmlError(403, "AccessDenied", "Request has expired");
  strictEqual(
    await response.text(),
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
  );
});

Deno.test("failureReply: the emulator's own error, in the format of the origin it fires on", async () => {
  const response = failureReply(503, "store");
  strictEqual(response.status, 503);
  strictEqual(response.headers.get("content-type"), "application/xml");
  strictEqual(
    (await response.text()).includes(
      "<Code>SlowDown</Code><Message>Service unavailable; please reduce your request rate.</Message>",
    ),
    true,
  );
  const echoed = failureReply(401, "repo", "Bad API key k-1");
  strictEqual((await echoed.json()).message, "Bad API key k-1");
});

Deno.test("clientGone: An answer nobody reads: its client went away while the request waited", () => {
  strictEqual(clientGone().status, 499);
});

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

Deno.test("failureReply: The answer of a failure rule, in the format of the origin it fires on", async () => {
  const response = failureReply({
    target: "store",
    status: 503,
    count: 1,
    retryAfter: "2",
  }, "store");
  strictEqual(response.headers.get("retry-after"), "2");
  strictEqual(response.headers.get("content-type"), "application/xml");
  await response.body?.cancel();
  const echoed = failureReply(
    { target: "repo", status: 401, count: 1, echoToken: true },
    "repo",
    "k-1",
  );
  strictEqual((await echoed.json()).message, "Bad API key k-1");
  const quoted = failureReply(
    { target: "store", status: 502, count: 1, echoUrl: true },
    "store",
    null,
    "http://s/k?sig=1",
  );
  strictEqual(
    (await quoted.text()).includes(
      "<Message>Bad gateway for http://s/k?sig=1</Message>",
    ),
    true,
  );
});

Deno.test("clientGone: An answer nobody reads: its client went away while the request waited", () => {
  strictEqual(clientGone().status, 499);
});

// Behaviour of src/emulator/content.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { contentReply, pacedBody } from "../../../src/emulator/content.ts";
import { createFaults } from "../../../src/emulator/faults.ts";

Deno.test("contentReply: The answer to a GET or HEAD for file bytes, with the body faults applied, and how many body…", async () => {
  const request = new Request("http://x/", { headers: { range: "bytes=1-2" } });
  const { response, sent } = contentReply(
    request,
    new Uint8Array([1, 2, 3, 4]),
    "application/octet-stream",
    createFaults(),
  );
  strictEqual(response.status, 206);
  strictEqual(response.headers.get("content-range"), "bytes 1-2/4");
  strictEqual(sent, 2);
  deepStrictEqual(await response.bytes(), new Uint8Array([2, 3]));
});

Deno.test("pacedBody: Streams `piece`, in the steps `pace()` gives while it gives any, then ends, or with `stall`…", async () => {
  const body = pacedBody(
    new Uint8Array(10),
    false,
    () => ({ bytes: 4, everyMs: 1 }),
    () => new AbortController().signal,
  );
  const sizes = [];
  for await (const chunk of body) sizes.push(chunk.length);
  strictEqual(sizes.join(), "4,4,2");
});

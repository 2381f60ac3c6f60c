// Behaviour of src/emulator/content.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { contentReply } from "../../../src/emulator/content.ts";

Deno.test("contentReply: The answer to a GET or HEAD for file bytes, and how many body bytes it sends", async () => {
  const request = new Request("http://x/", { headers: { range: "bytes=1-2" } });
  const { response, sent } = contentReply(
    request,
    new Uint8Array([1, 2, 3, 4]),
    "application/octet-stream",
  );
  strictEqual(response.status, 206);
  strictEqual(response.headers.get("content-range"), "bytes 1-2/4");
  strictEqual(sent, 2);
  deepStrictEqual(await response.bytes(), new Uint8Array([2, 3]));
});

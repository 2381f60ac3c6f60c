// Behaviour of src/formats/zip/decoded_history.ts: the ring of a member's last decoded bytes.
import { deepStrictEqual, equal } from "node:assert/strict";
import { DecodedHistory } from "../../../src/formats/zip/decoded_history.ts";

Deno.test("DecodedHistory keeps the last 4 MiB given, in pieces of any size, across the ring's end", () => {
  const size = 11 * 1024 * 1024;
  const member = new Uint8Array(size).map((_, i) => (i * 7 + (i >> 13)) & 0xff);
  const history = new DecodedHistory(size);
  let at = 0;
  for (const length of [10, 3 << 20, 1, 5 << 20, 12345, 2 << 20]) {
    history.append(member.subarray(at, at + length));
    at += length;
    equal(history.end, at);
    equal(history.start, Math.max(0, at - (4 << 20)));
    for (const from of [history.start, history.start + 1, at - 1000, at - 1]) {
      if (from < history.start) continue;
      deepStrictEqual(history.slice(from, at), member.slice(from, at));
    }
  }
  const small = new DecodedHistory(100);
  small.append(member.subarray(0, 100));
  deepStrictEqual(small.slice(0, 100), member.slice(0, 100));
});

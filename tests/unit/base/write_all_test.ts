// Behaviour of src/base/write_all.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual } from "node:assert/strict";
import { writeAll } from "../../../src/base/write_all.ts";

Deno.test("writeAll: Writes every byte, however many calls the sink needs", async () => {
  const calls: number[][] = [];
  const twoAtATime = {
    write: (bytes: Uint8Array) => {
      calls.push([...bytes.subarray(0, 2)]);
      return Promise.resolve(Math.min(2, bytes.byteLength));
    },
  };
  await writeAll(twoAtATime, new Uint8Array([1, 2, 3, 4, 5]));
  deepStrictEqual(calls, [[1, 2], [3, 4], [5]]);
});

// Behaviour of src/zarr/get_array.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import * as zarr from "zarrita";
import {
  MIN_PART_BYTES,
  MIN_PART_CHUNKS,
  partCount,
  splitSelection,
} from "../../../src/zarr/get_array.ts";

Deno.test("MIN_PART_CHUNKS: Fewest chunks in a part of a pool's read, unless its chunks decode to MIN_PART_BYTES: a…", () => {
  ok(MIN_PART_CHUNKS > 1);
});

Deno.test("MIN_PART_BYTES: Decoded bytes from which a part is big enough whatever its chunk count", () => {
  ok(MIN_PART_BYTES >= 2 ** 20);
});

Deno.test("partCount: How many parts `splitSelection` should cut `selection` of `arr` into: at most `most`, and few…", () => {
  const small = { shape: [200, 16, 32], chunks: [1, 16, 32], dtype: "float32" };
  strictEqual(partCount(null, small, 8), 3); // 2 KiB chunks: 64 or more per part
  const big = {
    shape: [16, 1024, 1024],
    chunks: [1, 1024, 1024],
    dtype: "float64",
  };
  strictEqual(partCount(null, big, 8), 8); // 8 MiB chunks: one is enough
});

Deno.test("splitSelection: Cuts `selection` along its first axis into at most `count` selections whose boundaries…", () => {
  // 100 rows in chunks of 10, two parts: rows 5..50 and 50..95
  deepStrictEqual(
    splitSelection([zarr.slice(5, 95), 3], [100, 8], [10, 8], 2),
    [
      [{ start: 5, stop: 50, step: 1 }, 3],
      [{ start: 50, stop: 95, step: 1 }, 3],
    ],
  );
});

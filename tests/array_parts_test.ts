import * as zarr from "zarrita";
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import {
  MIN_PART_BYTES,
  MIN_PART_CHUNKS,
  partCount,
  splitSelection,
} from "../src/zarr/get_array.ts";
import { startEmulator } from "../emulator.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { RepoFs } from "../mod.ts";
import {
  ArrayPartReader,
  chunkBytes,
  openArray,
  padSelection,
  readSelection,
} from "../src/zarr/array_part.ts";
import { withZarritaClass } from "../src/zarr/zarrita_errors.ts";

Deno.test("a part has at least MIN_PART_CHUNKS chunks", () => {
  ok(MIN_PART_CHUNKS > 1);
});

Deno.test("MIN_PART_BYTES makes a part big enough", () => {
  ok(MIN_PART_BYTES >= 2 ** 20);
});

Deno.test("partCount keeps parts few and big", () => {
  const small = { shape: [200, 16, 32], chunks: [1, 16, 32], dtype: "float32" };
  strictEqual(partCount(null, small, 8), 3); // 2 KiB chunks: 64 or more per part
  const big = {
    shape: [16, 1024, 1024],
    chunks: [1, 1024, 1024],
    dtype: "float64",
  };
  strictEqual(partCount(null, big, 8), 8); // 8 MiB chunks: one is enough
});

Deno.test("splitSelection cuts along the first axis", () => {
  // 100 rows in chunks of 10, two parts: rows 5..50 and 50..95
  deepStrictEqual(
    splitSelection([zarr.slice(5, 95), 3], [100, 8], [10, 8], 2),
    [
      [{ start: 5, stop: 50, step: 1 }, 3],
      [{ start: 50, stop: 95, step: 1 }, 3],
    ],
  );
});

Deno.test("the part reader opens each array once", async () => {
  // A 4 × 5 array in chunks of two rows, valued 0, 1, 2, … in C order.
  const values = ramp(Float32Array, 4 * 5);
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{ path: "temperature", data: values, shape: [4, 5], chunks: [2, 5] }],
      { format: 2, prefix: "climate.zarr" },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });

  const reader = new ArrayPartReader(fs);
  const part = await reader.read({
    root: "climate.zarr",
    arrayPath: "temperature",
    selection: null,
  });
  deepStrictEqual(part.shape, [4, 5]);
  deepStrictEqual(part.data, values);

  // The array is open: another part reads its one chunk and no metadata.
  const reads = emu.counters.storeGets;
  const row = await reader.read({
    root: "climate.zarr",
    arrayPath: "temperature",
    selection: [0],
  });
  deepStrictEqual(row.data, values.subarray(0, 5));
  strictEqual(emu.counters.storeGets, reads + 1);
});

Deno.test("openArray opens v2 and v3 arrays", async () => {
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{
        path: "temperature",
        data: new Float32Array(4 * 5),
        shape: [4, 5],
        chunks: [2, 5],
      }],
      { format: 3, prefix: "climate.zarr" },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });

  const arr = await openArray(fs, "climate.zarr", "temperature");
  deepStrictEqual(arr.shape, [4, 5]);
  deepStrictEqual(arr.chunks, [2, 5]);
  strictEqual(arr.dtype, "float32");
});

Deno.test("readSelection fills missing axes, points as scalars", async () => {
  // A 4 × 5 array valued 0, 1, 2, … in C order: (3, 4) holds 19.
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{
        path: "t",
        data: ramp(Float32Array, 20),
        shape: [4, 5],
        chunks: [2, 5],
      }],
      { format: 2 },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const arr = await openArray(fs, "", "t");

  const point = await readSelection(arr, [3, 4]);
  deepStrictEqual(point.shape, []);
  deepStrictEqual(point.data, new Float32Array([19]));
  const row = await readSelection(arr, [3]); // as [3, null]
  deepStrictEqual(row.data, new Float32Array([15, 16, 17, 18, 19]));
});

Deno.test("chunkBytes counts 8 bytes for other types", () => {
  strictEqual(chunkBytes({ chunks: [1, 16, 32], dtype: "float32" }), 2048);
  strictEqual(chunkBytes({ chunks: [4], dtype: "bool" }), 32);
});

Deno.test("padSelection pads missing axes with null", () => {
  deepStrictEqual(padSelection([3], 3), [3, null, null]);
  strictEqual(padSelection(null, 3), null);
});

Deno.test("zarrita errors get their class back", () => {
  const crossed = Object.assign(new Error("index out of bounds"), {
    name: "InvalidSelectionError",
    _tag: "InvalidSelectionError",
  });
  strictEqual(
    zarr.isZarritaError(withZarritaClass(crossed), "InvalidSelectionError"),
    true,
  );
});

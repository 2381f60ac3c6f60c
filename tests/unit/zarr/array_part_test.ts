// Behaviour of src/zarr/array_part.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { buildZarrStore, ramp } from "../../../fixtures/zarr_writer.ts";
import { RepoFs } from "../../../mod.ts";
import {
  ArrayPartReader,
  chunkBytes,
  openArray,
  padSelection,
  readSelection,
} from "../../../src/zarr/array_part.ts";

Deno.test("ArrayPartReader: Reads parts of Zarr arrays from one source, opening each array (reading its metadata)…", async () => {
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

Deno.test("openArray: Opens an array (Zarr v2 or v3) of the hierarchy in dataset directory `root`, its gzip and zlib…", async () => {
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

Deno.test("readSelection: `zarr.get(arr, selection)`, except that missing trailing axes are whole, and that a point…", async () => {
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

Deno.test("chunkBytes: Decoded bytes of one chunk of `arr`, counting 8 bytes an element for data types other than…", () => {
  strictEqual(chunkBytes({ chunks: [1, 16, 32], dtype: "float32" }), 2048);
  strictEqual(chunkBytes({ chunks: [4], dtype: "bool" }), 32);
});

Deno.test("padSelection: The selection with `null` for each missing trailing axis", () => {
  deepStrictEqual(padSelection([3], 3), [3, null, null]);
  strictEqual(padSelection(null, 3), null);
});

/**
 * Zarr over repo-fs: {@linkcode zarrStore} turns a directory of the dataset
 * into a zarrita store (Zarr v2 and v3, consolidated metadata, sharding),
 * and {@linkcode getArray} reads an array, fetching and decoding in the
 * workers of a `RepoFsPool` when given one.
 *
 * @example
 * With a real repository, `host` is its name, such as `repo.example.org`,
 * and `pid` the dataset's DOI; here the local emulator serves a dataset
 * holding a Zarr store `climate.zarr` with a year of `temperature` on a
 * 2 × 3 grid, 0, 1, 2, … in C order.
 *
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { getArray, zarrStore } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * // An uncompressed Zarr v2 array, 30 days to a chunk.
 * const files: Record<string, string | Uint8Array> = {
 *   "climate.zarr/.zgroup": '{"zarr_format":2}',
 *   "climate.zarr/temperature/.zarray": JSON.stringify({
 *     zarr_format: 2, shape: [365, 2, 3], chunks: [30, 2, 3], dtype: "<f4",
 *     compressor: null, filters: null, fill_value: 0, order: "C",
 *   }),
 * };
 * for (let chunk = 0; chunk * 30 < 365; chunk++) {
 *   const days = new Float32Array(30 * 6).map((_, i) => chunk * 180 + i);
 *   files[`climate.zarr/temperature/${chunk}.0.0`] = new Uint8Array(days.buffer);
 * }
 * const values = new Float32Array(365 * 6).map((_, i) => i);
 * await using emu = await startEmulator({ files });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 *
 * // Any zarrita call works on the store.
 * const store = await zarr.withMaybeConsolidatedMetadata(zarrStore(fs, "climate.zarr"));
 * const temperature = await zarr.open(zarr.root(store).resolve("temperature"), {
 *   kind: "array",
 * });
 * const firstDay = await zarr.get(temperature, [0, null, null]);
 * deepStrictEqual(firstDay.shape, [2, 3]);
 * deepStrictEqual(firstDay.data, new Float32Array([0, 1, 2, 3, 4, 5]));
 *
 * // Decode the year in four workers.
 * await using pool = new RepoFsPool(fs, { workers: 4 });
 * const year = await getArray(pool, "climate.zarr", "temperature", [
 *   zarr.slice(0, 365),
 *   null,
 *   null,
 * ]);
 * deepStrictEqual(year.shape, [365, 2, 3]);
 * deepStrictEqual(year.data, values);
 * ```
 *
 * @module
 */

export type { ByteSource } from "./src/formats/source.ts";
export { type RepoZarrStore, zarrStore } from "./src/zarr/zarr_store.ts";
export { getArray } from "./src/zarr/get_array.ts";
export type {
  ArrayResult,
  ArraySelection,
  ArrayValues,
} from "./src/formats/array_parts.ts";
export {
  type ChunkSelection,
  chunkShard,
  type Shard,
} from "./src/fleet/shards.ts";

/**
 * Zarr over repo-fs: {@linkcode zarrStore} turns a directory of the dataset
 * into a zarrita store (Zarr v2 and v3, consolidated metadata, sharding),
 * and {@linkcode getArray} reads an array, fetching and decoding in the
 * workers of a `RepoFsPool` when given one.
 *
 * @example
 * ```ts ignore
 * import * as zarr from "zarrita";
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { getArray, zarrStore } from "@x/repo-fs/zarr";
 *
 * const fs = new RepoFs({ host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" });
 *
 * // Any zarrita call works on the store.
 * const store = await zarr.withMaybeConsolidatedMetadata(zarrStore(fs, "climate.zarr"));
 * const temperature = await zarr.open(zarr.root(store).resolve("temperature"), {
 *   kind: "array",
 * });
 * const firstDay = await zarr.get(temperature, [0, null, null]);
 *
 * // Decode a year of it in four workers.
 * await using pool = new RepoFsPool(fs, { workers: 4 });
 * const year = await getArray(pool, "climate.zarr", "temperature", [
 *   zarr.slice(0, 365),
 *   null,
 *   null,
 * ]);
 * console.log(year.shape, year.data.length);
 * ```
 *
 * @module
 */

export {
  type ByteSource,
  type RepoZarrStore,
  zarrStore,
} from "./src/zarr/zarr_store.ts";
export { getArray } from "./src/zarr/get_array.ts";
export type {
  ArrayResult,
  ArraySelection,
  ArrayValues,
} from "./src/zarr/array_part.ts";

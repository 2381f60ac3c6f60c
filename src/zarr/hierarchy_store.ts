/**
 * The store of a Zarr hierarchy `getArray` reads: a directory of the
 * dataset, or a NetCDF (classic or NetCDF4) or HDF5 file presented as Zarr.
 *
 * @module
 */

import type { AsyncReadable } from "zarrita";
import { netcdfSeed, netcdfStore } from "../formats/netcdf/store.ts";
import type { MetadataSeed } from "../formats/kept_metadata.ts";
import type { ByteSource } from "../formats/source.ts";
import { normalizePath } from "../tree/paths.ts";
import { isFileIn, zarrStore } from "./zarr_store.ts";

/**
 * `netcdfStore(fs, root)` when `root` is a file (a classic NetCDF, NetCDF4
 * or HDF5 file, or a named error on its first read), else
 * `zarrStore(fs, root)`.
 */
export async function hierarchyStore(
  fs: ByteSource,
  root: string,
): Promise<AsyncReadable> {
  return await isFileRoot(fs, root)
    ? netcdfStore(fs, root)
    : zarrStore(fs, root);
}

/**
 * What a pool's worker needs to read `arrayPath` of `root` without reading
 * metadata: where `root` is a file whose metadata `fs` keeps, its bytes.
 */
export async function hierarchySeed(
  fs: ByteSource,
  root: string,
  arrayPath: string,
  signal?: AbortSignal,
): Promise<MetadataSeed | undefined> {
  if (fs.metadata === undefined || !await isFileRoot(fs, root)) {
    return undefined;
  }
  return await netcdfSeed(fs, root, arrayPath, signal);
}

async function isFileRoot(fs: ByteSource, root: string): Promise<boolean> {
  return normalizePath(root) !== "" && await isFileIn(fs, root);
}

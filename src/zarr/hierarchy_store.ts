/**
 * The store of a Zarr hierarchy `getArray` reads: a directory of the
 * dataset, or a NetCDF (classic or NetCDF4) or HDF5 file presented as Zarr.
 *
 * @module
 */

import type { AsyncReadable } from "zarrita";
import { netcdfStore } from "../formats/netcdf/store.ts";
import type { ByteSource as FormatSource } from "../formats/source.ts";
import { normalizePath } from "../tree/paths.ts";
import { type ByteSource, zarrStore } from "./zarr_store.ts";

/**
 * `netcdfStore(fs, root)` when `root` is a file (a classic NetCDF, NetCDF4
 * or HDF5 file, or a named error on its first read), else
 * `zarrStore(fs, root)`.
 */
export async function hierarchyStore(
  fs: ByteSource,
  root: string,
): Promise<AsyncReadable> {
  const isFile = normalizePath(root) !== "" && await fs.exists(root) &&
    (await fs.info(root)).type === "file";
  // RepoFs and RepoFsPool give the whole FileInfo, with the size.
  return isFile
    ? netcdfStore(fs as unknown as FormatSource, root)
    : zarrStore(fs, root);
}

/**
 * The store of a Zarr hierarchy `getArray` reads: a directory of the
 * dataset, or an HDF5/NetCDF4 file presented as Zarr.
 *
 * @module
 */

import type { AsyncReadable } from "zarrita";
import { hdf5Store } from "../formats/hdf5/store.ts";
import type { ByteSource as FormatSource } from "../formats/source.ts";
import { normalizePath } from "../tree/paths.ts";
import { type ByteSource, zarrStore } from "./zarr_store.ts";

/**
 * `hdf5Store(fs, root)` when `root` is a file (an HDF5 or NetCDF4 file, or
 * a named error on its first read), else `zarrStore(fs, root)`.
 */
export async function hierarchyStore(
  fs: ByteSource,
  root: string,
): Promise<AsyncReadable> {
  const isFile = normalizePath(root) !== "" && await fs.exists(root) &&
    (await fs.info(root)).type === "file";
  // RepoFs and RepoFsPool give the whole FileInfo, with the size.
  return isFile
    ? hdf5Store(fs as unknown as FormatSource, root)
    : zarrStore(fs, root);
}

/**
 * HDF5 and NetCDF4 files as Zarr: {@linkcode hdf5Store} presents a file of
 * the dataset as a zarrita store (a Zarr v2 group) built from the file's
 * metadata read by range, and {@linkcode hdf5References} writes the same
 * mapping as kerchunk references for fsspec and zarrita's reference store.
 * `getArray` of `@x/repo-fs/zarr` also takes such a file's path as its root.
 *
 * @module
 */

export { type Hdf5Store, hdf5Store } from "./src/formats/hdf5/store.ts";
export type { Hdf5Problem } from "./src/formats/hdf5/zarr_view.ts";
export {
  Hdf5FormatError,
  Hdf5UnsupportedError,
} from "./src/formats/hdf5/errors.ts";
export type { ByteSource } from "./src/formats/source.ts";
export {
  hdf5References,
  type Hdf5ReferencesOptions,
  type KerchunkReferences,
} from "./src/formats/hdf5/references.ts";
export type { Checksum, FileInfo } from "./src/base/types.ts";

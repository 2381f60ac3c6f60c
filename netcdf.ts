/**
 * NetCDF files of either kind as Zarr: {@linkcode netcdfStore} presents a
 * classic (CDF-1, CDF-2, CDF-5) or NetCDF4/HDF5 file of the dataset as a
 * zarrita store (a Zarr v2 group) read by range, and
 * {@linkcode netcdfReferences} writes the same mapping as kerchunk
 * references. `getArray` of `@x/repo-fs/zarr` also takes such a file's path
 * as its root.
 *
 * @module
 */

export { type NetcdfStore, netcdfStore } from "./src/formats/netcdf/store.ts";
export { NetcdfFormatError } from "./src/formats/netcdf/errors.ts";
export {
  netcdfReferences,
  type NetcdfReferencesOptions,
} from "./src/formats/netcdf/references.ts";
export type { KerchunkReferences } from "./src/formats/hdf5/references.ts";
export type { Hdf5Problem } from "./src/formats/hdf5/zarr_view.ts";
export type { ByteSource } from "./src/formats/source.ts";
export type { Checksum, FileInfo } from "./src/base/types.ts";

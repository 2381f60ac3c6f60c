/**
 * The errors of the HDF5 reader.
 *
 * @module
 */

/** An HDF5 file whose structures are damaged, or point outside the file. */
export class Hdf5FormatError extends Error {
  /**
   * @param path the file's dataset path
   * @param problem what is wrong, and where
   */
  constructor(readonly path: string, problem: string) {
    super(`Not a readable HDF5 file "${path}": ${problem}`);
    this.name = "Hdf5FormatError";
  }
}

/** A variable (or a feature) of an HDF5 file that cannot be presented as Zarr. */
export class Hdf5UnsupportedError extends Error {
  /**
   * @param variable the variable's path in the file (`/` for the file)
   * @param reason why it cannot be mapped
   */
  constructor(readonly variable: string, readonly reason: string) {
    super(`HDF5 variable "${variable}" cannot be read as Zarr: ${reason}`);
    this.name = "Hdf5UnsupportedError";
  }
}

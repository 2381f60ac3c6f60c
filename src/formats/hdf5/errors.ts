/**
 * The errors of the HDF5 reader.
 *
 * @module
 */

import {
  FormatError,
  type FormatErrorOptions,
  where,
} from "../../base/format_error.ts";

/**
 * An HDF5 file whose structures are damaged or point outside the file, or
 * a file that is not HDF5 at all.
 *
 * @example
 * ```ts
 * import { Hdf5FormatError } from "@x/repo-fs/hdf5";
 * import { strictEqual } from "node:assert/strict";
 * const error = new Hdf5FormatError("climate.nc", "no HDF5 signature");
 * strictEqual(error.message, 'Not a readable HDF5 file "climate.nc": no HDF5 signature');
 * ```
 */
export class Hdf5FormatError extends FormatError {
  /**
   * Makes the error.
   * @param path the file's path in its source
   * @param problem what is wrong, and where
   * @param options the variable concerned, and the cause
   */
  constructor(path: string, problem: string, options: FormatErrorOptions = {}) {
    super(path, problem, {
      ...options,
      message: `Not a readable HDF5 file "${path}"${
        where(options)
      }: ${problem}`,
    });
    this.name = "Hdf5FormatError";
  }
}

/**
 * A variable of an HDF5 file that cannot be presented as Zarr: a
 * {@linkcode FormatError} naming the variable and, when given, the file.
 *
 * @example
 * ```ts
 * import { Hdf5UnsupportedError } from "@x/repo-fs/hdf5";
 * import { FormatError } from "@x/repo-fs";
 * import { ok, strictEqual } from "node:assert/strict";
 * const error = new Hdf5UnsupportedError("names", "compound types are not supported", {
 *   path: "obs.h5",
 * });
 * strictEqual(error.variable, "names");
 * strictEqual(error.path, "obs.h5");
 * ok(error instanceof FormatError);
 * ```
 */
export class Hdf5UnsupportedError extends FormatError {
  /** The variable's path in the file. */
  declare readonly variable: string;
  /** Why it cannot be mapped. */
  readonly reason: string;
  /**
   * Makes the error.
   * @param variable the variable's path in the file
   * @param reason why it cannot be mapped
   * @param options `path`: the file's path in its source (`""` when not
   * given); `cause`: the failure this explains
   */
  constructor(
    variable: string,
    reason: string,
    options: { path?: string; cause?: unknown } = {},
  ) {
    const path = options.path ?? "";
    super(path, reason, {
      variable,
      cause: options.cause,
      message: `HDF5 variable "${variable}"${
        path === "" ? "" : ` of "${path}"`
      } cannot be read as Zarr: ${reason}`,
    });
    this.name = "Hdf5UnsupportedError";
    this.reason = reason;
  }
}

/**
 * The error of the classic NetCDF reader.
 *
 * @module
 */

import {
  FormatError,
  type FormatErrorOptions,
  where,
} from "../../base/format_error.ts";

/**
 * A classic NetCDF file (CDF-1, CDF-2 or CDF-5) whose header is damaged,
 * truncated or absurd, whose data lies outside the file, or a file that is
 * no NetCDF at all.
 *
 * @example
 * ```ts
 * import { NetcdfFormatError } from "@x/repo-fs/netcdf";
 * import { FormatError } from "@x/repo-fs";
 * import { ok, strictEqual } from "node:assert/strict";
 * const error = new NetcdfFormatError("ocean.nc", "its data runs past the end of the file", {
 *   variable: "sst",
 * });
 * strictEqual(
 *   error.message,
 *   'Not a readable NetCDF file "ocean.nc", variable "sst": its data runs past the end of the file',
 * );
 * ok(error instanceof FormatError);
 * ```
 */
export class NetcdfFormatError extends FormatError {
  /**
   * Makes the error.
   * @param path the file's path in its source
   * @param problem what is wrong, and where
   * @param options the variable concerned, and the cause
   */
  constructor(path: string, problem: string, options: FormatErrorOptions = {}) {
    super(path, problem, {
      ...options,
      message: `Not a readable NetCDF file "${path}"${
        where(options)
      }: ${problem}`,
    });
    this.name = "NetcdfFormatError";
  }
}

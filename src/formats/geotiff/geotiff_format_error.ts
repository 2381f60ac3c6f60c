/**
 * The error for a file that is not readable as a GeoTIFF.
 *
 * @module
 */

import {
  FormatError,
  type FormatErrorOptions,
} from "../../base/format_error.ts";

/**
 * A file that is not a TIFF, or whose directories, tiles or codec geotiff.js
 * cannot read; the message names the file and the problem, and `cause` is
 * geotiff.js's own error.
 *
 * @example
 * ```ts
 * import { GeotiffFormatError } from "@x/repo-fs/geotiff";
 * import { FormatError } from "@x/repo-fs";
 * import { ok, strictEqual } from "node:assert/strict";
 * const error = new GeotiffFormatError("maps/dem.tif", "it does not start with a TIFF byte order mark");
 * ok(error instanceof FormatError);
 * strictEqual(error.message, 'Not a readable GeoTIFF "maps/dem.tif": it does not start with a TIFF byte order mark');
 * ```
 */
export class GeotiffFormatError extends FormatError {
  /**
   * Makes the error for file `path`.
   * @param path the file's path in its source
   * @param problem what is wrong with it
   * @param options the cause
   */
  constructor(path: string, problem: string, options: FormatErrorOptions = {}) {
    super(path, problem, {
      ...options,
      message: `Not a readable GeoTIFF "${path}": ${problem}`,
    });
    this.name = "GeotiffFormatError";
  }
}

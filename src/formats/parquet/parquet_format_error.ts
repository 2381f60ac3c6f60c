/**
 * The error for a file that is not readable as Parquet.
 *
 * @module
 */

import {
  FormatError,
  type FormatErrorOptions,
  where,
} from "../../base/format_error.ts";

/**
 * A file that is not a Parquet file, or whose footer points outside it.
 *
 * @example
 * ```ts
 * import { ParquetFormatError } from "@x/repo-fs/parquet";
 * import { strictEqual } from "node:assert/strict";
 * const error = new ParquetFormatError("tables/a.parquet", "it does not end with PAR1");
 * strictEqual(error.name, "ParquetFormatError");
 * strictEqual(error.path, "tables/a.parquet");
 * strictEqual(error.message, 'Not a readable Parquet file "tables/a.parquet": it does not end with PAR1');
 * ```
 */
export class ParquetFormatError extends FormatError {
  /**
   * Makes the error for file `path`.
   * @param path the dataset path of the file
   * @param problem what is wrong with it
   * @param options the column and row group concerned, and the cause
   */
  constructor(path: string, problem: string, options: FormatErrorOptions = {}) {
    super(path, problem, {
      ...options,
      message: `Not a readable Parquet file "${path}"${
        where(options)
      }: ${problem}`,
    });
    this.name = "ParquetFormatError";
  }
}

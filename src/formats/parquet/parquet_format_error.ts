/**
 * The error for a file that is not readable as Parquet.
 *
 * @module
 */

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
export class ParquetFormatError extends Error {
  /** The dataset path of the file. */
  readonly path: string;
  /**
   * Makes the error for file `path`.
   * @param path the dataset path of the file
   * @param problem what is wrong with it
   */
  constructor(path: string, problem: string) {
    super(`Not a readable Parquet file "${path}": ${problem}`);
    this.name = "ParquetFormatError";
    this.path = path;
  }
}

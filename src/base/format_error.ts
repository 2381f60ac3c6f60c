/**
 * The one base class of every format reader's refusal.
 *
 * @module
 */

import { clip } from "./errors.ts";

/**
 * Where in a file a {@linkcode FormatError} happened, and what caused it.
 *
 * @example
 * ```ts
 * import { FormatError, type FormatErrorOptions } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const where: FormatErrorOptions = { member: "data/a.nc", variable: "t" };
 * const error = new FormatError("run.zip", "chunk 3 is damaged", where);
 * strictEqual(error.message, 'Cannot read "run.zip", member "data/a.nc", variable "t": chunk 3 is damaged');
 * ```
 */
export interface FormatErrorOptions {
  /** The archive member concerned. */
  member?: string;
  /** The variable (HDF5 dataset, NetCDF variable) concerned. */
  variable?: string;
  /** The column concerned. */
  column?: string;
  /** The row group concerned (0-based). */
  rowGroup?: number;
  /** The failure this error explains, such as a dependency's own error. */
  cause?: unknown;
  /** The whole message, when a subclass words it itself. */
  message?: string;
}

/**
 * A file that a format reader refuses: damaged, hostile, or using what is not
 * read here. The message names the file and, where known, the member,
 * variable, column or row group, and says what is wrong. `ZipFormatError`,
 * `ParquetFormatError` and the HDF5 and NetCDF errors extend it, so one
 * `instanceof FormatError` catches every refusal.
 *
 * @example
 * ```ts
 * import { FormatError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const error = new FormatError("tables/a.parquet", "page header is damaged", {
 *   column: "x",
 *   rowGroup: 2,
 * });
 * strictEqual(
 *   error.message,
 *   'Cannot read "tables/a.parquet", column "x", row group 2: page header is damaged',
 * );
 * strictEqual(error.column, "x");
 * ```
 */
export class FormatError extends Error {
  /** The file's path in its source. */
  readonly path: string;
  /** What is wrong, without the file's name. */
  readonly problem: string;
  /** The archive member concerned, if any. */
  readonly member?: string;
  /** The variable concerned, if any. */
  readonly variable?: string;
  /** The column concerned, if any. */
  readonly column?: string;
  /** The row group concerned, if any. */
  readonly rowGroup?: number;
  /**
   * Makes the error.
   * @param path the file's path in its source
   * @param problem what is wrong
   * @param options where in the file, and the cause
   */
  constructor(path: string, problem: string, options: FormatErrorOptions = {}) {
    super(
      options.message ??
        `Cannot read "${clip(path)}"${where(options)}: ${problem}`,
      {
        cause: options.cause,
      },
    );
    this.name = "FormatError";
    this.path = path;
    this.problem = problem;
    if (options.member !== undefined) this.member = options.member;
    if (options.variable !== undefined) this.variable = options.variable;
    if (options.column !== undefined) this.column = options.column;
    if (options.rowGroup !== undefined) this.rowGroup = options.rowGroup;
  }
}

/** `, member "m", variable "v", column "c", row group N` as far as known. */
export function where(options: FormatErrorOptions): string {
  let text = "";
  if (options.member !== undefined) {
    text += `, member "${clip(options.member)}"`;
  }
  if (options.variable !== undefined) {
    text += `, variable "${clip(options.variable)}"`;
  }
  if (options.column !== undefined) {
    text += `, column "${clip(options.column)}"`;
  }
  if (options.rowGroup !== undefined) text += `, row group ${options.rowGroup}`;
  return text;
}

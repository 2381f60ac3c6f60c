/**
 * What a pool's worker is asked for one part of a Parquet read (a row
 * group's rows) and what it answers: rows, or columns.
 *
 * @module
 */

/**
 * Rows `rowStart`..`rowEnd` (all in one row group) of file `path`, whose
 * footer the main thread has read, so that a worker does not read it again.
 */
export interface ParquetPartRequest {
  /** The file's path in the source. */
  path: string;
  /** The footer's bytes: the metadata and the 8-byte tail. */
  footer: Uint8Array;
  /** The columns to read; all when absent. */
  columns?: string[];
  /** First row (of the file), inclusive. */
  rowStart: number;
  /** Last row (of the file), exclusive. */
  rowEnd: number;
}

/** Rows as objects keyed by column name. */
export type ParquetRows = Record<string, unknown>[];

/**
 * A column's values: a typed array where hyparquet decoded one (numbers without nulls), else an array.
 *
 * @example
 * ```ts
 * import type { ParquetColumn } from "@x/repo-fs/parquet";
 * import { strictEqual } from "node:assert/strict";
 * const ids: ParquetColumn = Int32Array.from([1, 2, 3]);
 * const scores: ParquetColumn = [0.5, null, 2];
 * strictEqual(ids.length + scores.length, 6);
 * ```
 */
export type ParquetColumn =
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array
  | unknown[];

/**
 * Columns keyed by name, in the file's column order.
 *
 * @example
 * ```ts
 * import type { ParquetColumns } from "@x/repo-fs/parquet";
 * import { deepStrictEqual } from "node:assert/strict";
 * const table: ParquetColumns = { id: Int32Array.from([7]), name: ["a"] };
 * deepStrictEqual(Object.keys(table), ["id", "name"]);
 * ```
 */
export type ParquetColumns = Record<string, ParquetColumn>;

/** What one part of a read gives: its columns, typed arrays moved back from a worker; rows are built by the caller. */
export type ParquetPart = ParquetColumns;

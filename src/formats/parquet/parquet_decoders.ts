/**
 * Sources that read and decode Parquet row groups in workers of their own:
 * a `RepoFsPool` offers itself when it is made. None of this is public.
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

/** Reads and decodes parts of Parquet files off the calling thread. */
export interface ParquetDecoder {
  /** How many parts can be decoded at once, one per worker. */
  readonly workers: number;
  /** The columns of one part, read and decoded by one worker. */
  read(
    request: ParquetPartRequest,
    options?: { signal?: AbortSignal },
  ): Promise<ParquetPart>;
}

const decoders = new WeakMap<object, ParquetDecoder>();

/** Makes `decoder` the way `readParquet` reads row groups of `source`. */
export function offerParquetDecoder(
  source: object,
  decoder: ParquetDecoder,
): void {
  decoders.set(source, decoder);
}

/** The decoder `source` offered, if any. */
export function parquetDecoderOf(source: object): ParquetDecoder | undefined {
  return decoders.get(source);
}

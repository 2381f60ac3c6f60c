/**
 * Rows of a Parquet file, fetched by column chunk and decoded by row group.
 *
 * @module
 */

import { type FileMetaData, parquetSchema } from "hyparquet";
import type { ByteSource } from "../source.ts";
import { readFooter } from "./footer.ts";
import { parquetFile } from "./parquet_file.ts";
import {
  type ParquetDecoder,
  parquetDecoderOf,
  type ParquetRows,
} from "./parquet_decoders.ts";
import { readRows } from "./read_rows.ts";

/**
 * What {@linkcode readParquet} reads.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { readParquet, type ReadParquetOptions } from "@x/repo-fs/parquet";
 * import { deepStrictEqual } from "node:assert/strict";
 * // stations.parquet as pyarrow writes it: `id` 0..9 and `flag` (every third
 * // row) in two row groups of 5 rows; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA51RTWvCQBCd3aRrzEGCdBYXPOTiEiFKLeZUL14KBQ/SfxBs2gptTWM/rh79QR7z" +
 *     "4/o2LRQP7cFlHzPsmzdvmVnObyfsc8LJgkOmLjVHABLwAB9gYs06RUXEilX/hw6F5+2vHdvhjmPp" +
 *     "mG0fdz7DowJaQAC0T+/cZd/MMuqp7eqxeM7ZJ5YD2ZPrO2iQ+PdP+QPpc5Oa1FKfpclIRcYVMOlQ" +
 *     "7wSuXdhgmOKPEDurCGE2VMZSCBMnIzNQZL67Nbqpntq9uAHTiH6r9UHo0AYI9J/jTtpanOBZyz89" +
 *     "a+FMk7jMq9f34m20KstRXlWbz/ijqLbrzUt8mY0vxhOTYnxuglfY7hJr/wIxpm+R+wEAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const content = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "stations.parquet": content } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const lastFlags: ReadParquetOptions = { columns: ["flag"], rowStart: 8 };
 * const rows = await readParquet(fs, "stations.parquet", lastFlags);
 * deepStrictEqual(rows, [{ flag: false }, { flag: true }]);
 * ```
 */
export interface ReadParquetOptions {
  /** The columns to read (top-level names); all when absent. */
  columns?: string[];
  /** First row, inclusive. Default 0. */
  rowStart?: number;
  /** Last row, exclusive. Default: the end of the file. */
  rowEnd?: number;
  /** Aborts the read, in the workers too. */
  signal?: AbortSignal;
}

/**
 * Rows `rowStart`..`rowEnd` of the asked `columns` of Parquet file `path`,
 * as objects keyed by column name in the file's column order. It reads
 * the file's last 8 bytes, then exactly the footer they announce, then
 * only the column chunks of the asked columns in the row groups that hold
 * the asked rows. With a
 * `RepoFsPool` each row group is fetched and decoded in a worker, in
 * parallel; the rows come back in file order either way. Codecs: snappy,
 * gzip, zstd, brotli, lz4.
 *
 * @example
 * ```ts
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { readParquet } from "@x/repo-fs/parquet";
 * import { deepStrictEqual } from "node:assert/strict";
 * // stations.parquet as pyarrow writes it: `id` 0..9 and `flag` (every third
 * // row) in two row groups of 5 rows; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA51RTWvCQBCd3aRrzEGCdBYXPOTiEiFKLeZUL14KBQ/SfxBs2gptTWM/rh79QR7z" +
 *     "4/o2LRQP7cFlHzPsmzdvmVnObyfsc8LJgkOmLjVHABLwAB9gYs06RUXEilX/hw6F5+2vHdvhjmPp" +
 *     "mG0fdz7DowJaQAC0T+/cZd/MMuqp7eqxeM7ZJ5YD2ZPrO2iQ+PdP+QPpc5Oa1FKfpclIRcYVMOlQ" +
 *     "7wSuXdhgmOKPEDurCGE2VMZSCBMnIzNQZL67Nbqpntq9uAHTiH6r9UHo0AYI9J/jTtpanOBZyz89" +
 *     "a+FMk7jMq9f34m20KstRXlWbz/ijqLbrzUt8mY0vxhOTYnxuglfY7hJr/wIxpm+R+wEAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const content = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "stations.parquet": content } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * // Rows 4 and 5, across the two row groups.
 * const rows = await readParquet(fs, "stations.parquet", { rowStart: 4, rowEnd: 6 });
 * deepStrictEqual(rows, [{ id: 4, flag: false }, { id: 5, flag: false }]);
 * // The row groups decoded in a pool's workers.
 * await using pool = new RepoFsPool(fs, { workers: 2 });
 * const ids = await readParquet(pool, "stations.parquet", { columns: ["id"] });
 * deepStrictEqual(ids.map((row) => row.id), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` (decodes in its workers) or a `zipTree`
 * @param path the file's path in `source`
 * @param options the columns and rows to read, and a signal
 */
export async function readParquet(
  source: ByteSource,
  path: string,
  options: ReadParquetOptions = {},
): Promise<Record<string, unknown>[]> {
  const { columns, signal } = options;
  const file = await parquetFile(source, path, { signal });
  const footer = await readFooter(file, path);
  const { metadata } = footer;
  checkColumns(metadata, columns, path);
  const total = Number(metadata.num_rows);
  const rowStart = Math.max(0, options.rowStart ?? 0);
  const rowEnd = Math.min(total, options.rowEnd ?? total);
  if (rowStart >= rowEnd) return [];
  const decoder = parquetDecoderOf(source);
  if (decoder === undefined) {
    return await readRows(file, metadata, { columns, rowStart, rowEnd });
  }
  const parts = groupRanges(metadata, rowStart, rowEnd).map((range) => ({
    path,
    footer: footer.bytes,
    columns,
    ...range,
  }));
  return (await readAll(decoder, parts, signal)).flat();
}

/** Each row group's share of rows `rowStart`..`rowEnd`, in file order. */
function groupRanges(
  metadata: FileMetaData,
  rowStart: number,
  rowEnd: number,
): { rowStart: number; rowEnd: number }[] {
  const ranges = [];
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupEnd = groupStart + Number(group.num_rows);
    const start = Math.max(groupStart, rowStart);
    const end = Math.min(groupEnd, rowEnd);
    if (start < end) ranges.push({ rowStart: start, rowEnd: end });
    groupStart = groupEnd;
  }
  return ranges;
}

/** Every part through `decoder`; the first failure cancels the others. */
async function readAll(
  decoder: ParquetDecoder,
  parts: Parameters<ParquetDecoder["read"]>[0][],
  callerSignal?: AbortSignal,
): Promise<ParquetRows[]> {
  const failed = new AbortController();
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, failed.signal])
    : failed.signal;
  const reads = parts.map((part) =>
    decoder.read(part, { signal }).catch((error) => {
      failed.abort(error);
      throw error;
    })
  );
  await Promise.allSettled(reads);
  signal.throwIfAborted();
  return await Promise.all(reads);
}

/** Fails with a `TypeError` naming a column the file does not have. */
function checkColumns(
  metadata: FileMetaData,
  columns: string[] | undefined,
  path: string,
): void {
  const names = new Set(
    parquetSchema(metadata).children.map((c) => c.element.name),
  );
  const missing = columns?.find((column) => !names.has(column));
  if (missing !== undefined) {
    throw new TypeError(
      `Parquet file "${path}" has no column "${missing}" (it has ${
        [...names].join(", ")
      })`,
    );
  }
}

/**
 * Rows of a Parquet file, fetched by column chunk and decoded by row group.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { readFooter } from "./footer.ts";
import { parquetFile } from "./parquet_file.ts";
import {
  type ParquetDecoder,
  parquetDecoderOf,
  type ParquetRows,
} from "./parquet_decoders.ts";
import { dataEnd, readRows } from "./read_rows.ts";
import { planRead } from "./read_plan.ts";

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
  const { columns } = options;
  const stop = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, stop.signal])
    : stop.signal;
  const file = await parquetFile(source, path, { signal });
  const footer = await readFooter(file, path);
  const { metadata } = footer;
  const total = Number(metadata.num_rows);
  const rowStart = Math.max(0, options.rowStart ?? 0);
  const rowEnd = Math.min(total, options.rowEnd ?? total);
  const request = { columns, rowStart, rowEnd: Math.max(rowStart, rowEnd) };
  const decoder = parquetDecoderOf(source);
  if (decoder === undefined) {
    return await readRows(file, path, metadata, request, stop);
  }
  const parts = planRead(metadata, request, path, dataEnd(file, metadata))
    .map((part) => ({
      path,
      footer: footer.bytes,
      columns,
      rowStart: part.groupStart + part.selectStart,
      rowEnd: part.groupStart + part.selectEnd,
    }));
  return (await readAll(decoder, parts, signal, stop)).flat();
}

/** Every part through `decoder`; the first failure aborts `stop`, which cancels the others. */
async function readAll(
  decoder: ParquetDecoder,
  parts: Parameters<ParquetDecoder["read"]>[0][],
  signal: AbortSignal,
  stop: AbortController,
): Promise<ParquetRows[]> {
  const reads = parts.map((part) =>
    decoder.read(part, { signal }).catch((error) => {
      stop.abort(error);
      throw error;
    })
  );
  await Promise.allSettled(reads);
  signal.throwIfAborted();
  return await Promise.all(reads);
}

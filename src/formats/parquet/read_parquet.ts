/**
 * Rows of a Parquet file, fetched by column chunk and decoded by row group.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import type { ParquetColumns, ParquetRows } from "./parquet_parts.ts";
import { type ReadParquetOptions, readParts } from "./read_parts.ts";

export type { ReadParquetOptions };

/**
 * Rows `rowStart`..`rowEnd` of the asked `columns` of Parquet file `path`,
 * as objects keyed by column name in the file's column order. It reads
 * the file's last 64 KiB (which holds the footer of most files; the rest
 * of a longer footer after), then the column chunks of the asked columns
 * in the row groups that hold the asked rows, all at once, decoding each
 * row group as it arrives. With a `RepoFsPool` each row group is fetched
 * and decoded in a worker, in parallel, and its rows are built here from
 * the typed arrays it moves back; the rows come in file order either way.
 * Codecs: snappy, gzip, zstd, brotli, lz4.
 *
 * Values: `BYTE_ARRAY` and `FIXED_LEN_BYTE_ARRAY` columns are
 * `Uint8Array`s unless annotated `STRING`/`UTF8`, `ENUM` or `JSON` (then
 * text, JSON not parsed; text that is not UTF-8 is refused); integers of
 * 64 bits are `bigint`s; `DECIMAL`s the double nearest their digits;
 * dates and timestamps `Date`s (to the millisecond at or before); `UUID`s
 * 8-4-4-4-12 text. A file that cannot be read right fails with
 * `ParquetFormatError` naming the column and row group where
 * known, before a declared size that cannot be right is allocated.
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
  let rows: ParquetRows = [];
  await readParts(source, path, options, (columns, at, total) => {
    if (rows.length < total) rows = new Array(total);
    addRows(rows, at, columns);
  });
  return rows;
}

/** One object per row of `columns` (all of one length) into `rows` from `at`, keys in their order. */
function addRows(rows: ParquetRows, at: number, columns: ParquetColumns) {
  const names = Object.keys(columns);
  const values = names.map((name) => columns[name]);
  const count = values[0]?.length ?? 0;
  // Indexed loops: a for-of over entries here costs ~10x.
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    for (let c = 0; c < names.length; c++) row[names[c]] = values[c][i];
    rows[at + i] = row;
  }
}

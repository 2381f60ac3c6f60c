/**
 * Columns of a Parquet file as arrays, without an object per row.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { joinColumns } from "./columns.ts";
import type { ParquetColumns } from "./parquet_parts.ts";
import { type ReadParquetOptions, readParts } from "./read_parts.ts";

/**
 * Rows `rowStart`..`rowEnd` of the asked `columns` of Parquet file `path`,
 * as one array per column in the file's column order: a typed array
 * (`Int32Array`, `Float64Array`, `BigInt64Array`, ...) for a numeric
 * column with no null among the rows read, an array otherwise, with values
 * as {@linkcode readParquet} gives them. It reads as `readParquet` does —
 * the footer in one read of the file's last 64 KiB, then every column chunk
 * needed at once, each row group decoded as it arrives — and builds no
 * object per row. With a `RepoFsPool` each row group is decoded in a
 * worker, and its typed arrays come back moved, not copied.
 *
 * @example
 * ```ts
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { readParquetColumns } from "@x/repo-fs/parquet";
 * import { deepStrictEqual, ok } from "node:assert/strict";
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
 * // Rows 3..7, across the two row groups.
 * const { id, flag } = await readParquetColumns(fs, "stations.parquet", { rowStart: 3, rowEnd: 7 });
 * ok(id instanceof Int32Array);
 * deepStrictEqual([...id], [3, 4, 5, 6]);
 * deepStrictEqual(flag, [true, false, false, true]);
 * // The row groups decoded in a pool's workers.
 * await using pool = new RepoFsPool(fs, { workers: 2 });
 * const ids = await readParquetColumns(pool, "stations.parquet", { columns: ["id"] });
 * deepStrictEqual(ids, { id: Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) });
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` (decodes in its workers) or a `zipTree`
 * @param path the file's path in `source`
 * @param options the columns and rows to read, and a signal
 */
export async function readParquetColumns(
  source: ByteSource,
  path: string,
  options: ReadParquetOptions = {},
): Promise<ParquetColumns> {
  const { names, parts } = await readParts(
    source,
    path,
    options,
    (columns) => columns,
  );
  if (parts.length === 0) {
    return Object.fromEntries(names.map((name) => [name, []]));
  }
  return joinColumns(parts);
}

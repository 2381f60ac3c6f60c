/**
 * The shared course of `readParquet` and `readParquetColumns`: the footer,
 * the plan, then the row groups, here or in a pool's workers.
 *
 * @module
 */

import { parquetSchema } from "hyparquet";
import type { ByteSource, WorkerDecoders } from "../source.ts";
import { readFooter } from "./footer.ts";
import { keptMetadata } from "../kept_metadata.ts";
import { parquetFile } from "./parquet_file.ts";
import type { ParquetColumns, ParquetPartRequest } from "./parquet_parts.ts";
import { dataEnd, type EachPart, readLocal } from "./read_part.ts";
import { planRead } from "./read_plan.ts";

/**
 * What `readParquet` and `readParquetColumns` read.
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
 * `each` of the asked rows of file `path` in consecutive parts of columns,
 * called as each part is decoded (not in order), with the names of the
 * columns read.
 * With a `RepoFsPool` each row group is a part read and decoded in a
 * worker (its typed arrays moved back, not copied), so that `each` runs
 * here while the workers decode the next; otherwise each row group is a
 * part, all fetched at once and decoded here as they arrive.
 */
export async function readParts<T>(
  source: ByteSource,
  path: string,
  options: ReadParquetOptions,
  each: EachPart<T>,
): Promise<{ names: string[]; parts: T[] }> {
  const { columns } = options;
  const stop = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, stop.signal])
    : stop.signal;
  source.decoders?.prepare?.("parquet");
  const { footer, data } = await keptMetadata(
    source,
    path,
    "parquet",
    async (sources, signal) => ({
      footer: await readFooter(
        await parquetFile(sources.metadata, path, { signal }),
        path,
      ),
      data: sources.data,
    }),
    signal,
  );
  const file = await parquetFile(data, path, { signal });
  const { metadata } = footer;
  const total = Number(metadata.num_rows);
  const rowStart = Math.max(0, options.rowStart ?? 0);
  const rowEnd = Math.max(rowStart, Math.min(total, options.rowEnd ?? total));
  const request = { columns, rowStart, rowEnd };
  const groups = planRead(metadata, request, path, dataEnd(file, metadata));
  const names = parquetSchema(metadata).children
    .map((child) => child.element.name)
    .filter((name) => !columns || columns.includes(name));
  if (groups.length === 0) return { names, parts: [] };
  const decoders = source.decoders;
  if (decoders === undefined) {
    return {
      names,
      parts: await readLocal(file, path, metadata, request, stop, each),
    };
  }
  const requests = groups.map((group) => ({
    path,
    footer: footer.bytes,
    columns,
    rowStart: group.groupStart + group.selectStart,
    rowEnd: group.groupStart + group.selectEnd,
  }));
  return {
    names,
    parts: await readAll(
      decoders,
      requests,
      (columns, request) =>
        each(columns, request.rowStart - rowStart, rowEnd - rowStart),
      signal,
      stop,
    ),
  };
}

/**
 * `each` of every part through `decoder`, as each arrives; the first
 * failure aborts `stop`, which cancels the others.
 */
async function readAll<T>(
  decoders: WorkerDecoders,
  requests: ParquetPartRequest[],
  each: (columns: ParquetColumns, request: ParquetPartRequest) => T,
  signal: AbortSignal,
  stop: AbortController,
): Promise<T[]> {
  const reads = requests.map((request) =>
    decoders.readParquet(request, { signal }).then((columns) =>
      each(columns, request)
    )
      .catch((error) => {
        stop.abort(error);
        throw error;
      })
  );
  await Promise.allSettled(reads);
  signal.throwIfAborted();
  return await Promise.all(reads);
}

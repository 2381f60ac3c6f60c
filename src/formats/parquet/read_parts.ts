/**
 * The shared course of `readParquet` and `readParquetColumns`: the footer,
 * the plan, then the row groups, here or in a pool's workers.
 *
 * @module
 */

import { parquetSchema } from "hyparquet";
import type { ByteSource } from "../source.ts";
import { readFooter } from "./footer.ts";
import { parquetFile } from "./parquet_file.ts";
import {
  type ParquetDecoder,
  parquetDecoderOf,
  type ParquetPart,
} from "./parquet_decoders.ts";
import { dataEnd, readLocal } from "./read_part.ts";
import { planRead } from "./read_plan.ts";

/** What a read asks for. */
export interface PartsOptions {
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
 * The asked rows of file `path` in consecutive parts, as rows or columns
 * (`columnar`), with the names of the columns read. With a `RepoFsPool`
 * each row group is a part read and decoded in a worker; otherwise one
 * part, its row groups fetched at once and decoded here.
 */
export async function readParts(
  source: ByteSource,
  path: string,
  options: PartsOptions,
  columnar: boolean,
): Promise<{ names: string[]; parts: ParquetPart[] }> {
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
  const rowEnd = Math.max(rowStart, Math.min(total, options.rowEnd ?? total));
  const request = { columns, rowStart, rowEnd, columnar };
  const groups = planRead(metadata, request, path, dataEnd(file, metadata));
  const names = parquetSchema(metadata).children
    .map((child) => child.element.name)
    .filter((name) => !columns || columns.includes(name));
  if (groups.length === 0) return { names, parts: [] };
  const decoder = parquetDecoderOf(source);
  if (decoder === undefined) {
    return {
      names,
      parts: [await readLocal(file, path, metadata, request, stop)],
    };
  }
  const requests = groups.map((group) => ({
    path,
    footer: footer.bytes,
    columns,
    columnar,
    rowStart: group.groupStart + group.selectStart,
    rowEnd: group.groupStart + group.selectEnd,
  }));
  return { names, parts: await readAll(decoder, requests, signal, stop) };
}

/** Every part through `decoder`; the first failure aborts `stop`, which cancels the others. */
async function readAll(
  decoder: ParquetDecoder,
  requests: Parameters<ParquetDecoder["read"]>[0][],
  signal: AbortSignal,
  stop: AbortController,
): Promise<ParquetPart[]> {
  const reads = requests.map((request) =>
    decoder.read(request, { signal }).catch((error) => {
      stop.abort(error);
      throw error;
    })
  );
  await Promise.allSettled(reads);
  signal.throwIfAborted();
  return await Promise.all(reads);
}

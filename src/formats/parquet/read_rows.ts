/**
 * Rows of a Parquet file: its row groups fetched at once and decoded by
 * hyparquet as they arrive, here or in a pool's worker.
 *
 * @module
 */

import type { FileMetaData } from "hyparquet";
import type { ByteSource } from "../source.ts";
import { decodeGroup, type GroupColumns } from "./decode_group.ts";
import { parseFooter } from "./footer.ts";
import { type ParquetBuffer, parquetFile } from "./parquet_file.ts";
import type { ParquetPartRequest, ParquetRows } from "./parquet_decoders.ts";
import { readGroups } from "./read_groups.ts";
import { planRead, type ReadRequest } from "./read_plan.ts";

/**
 * Rows `rowStart`..`rowEnd` of the asked columns of `file` (whose footer
 * gave `metadata`), fetching only their column chunks. A failure aborts
 * `stop`, which `file` reads with.
 */
export async function readRows(
  file: ParquetBuffer,
  path: string,
  metadata: FileMetaData,
  request: ReadRequest,
  stop: AbortController,
): Promise<ParquetRows> {
  const parts = planRead(metadata, request, path, dataEnd(file, metadata));
  const groups = await readGroups(
    file,
    parts,
    (part, bytes) => decodeGroup(path, metadata, part, bytes),
    stop,
  );
  return groups.flatMap(toRows);
}

/** Where the footer starts: the end of the row groups' data. */
export function dataEnd(file: ParquetBuffer, metadata: FileMetaData): number {
  return file.byteLength - 8 - metadata.metadata_length;
}

function toRows(columns: GroupColumns): ParquetRows {
  const entries = [...columns];
  const count = entries[0]?.[1].length ?? 0;
  return Array.from(
    { length: count },
    (_, row) =>
      Object.fromEntries(entries.map(([name, values]) => [name, values[row]])),
  );
}

/** A part a pool's worker was asked for, read from its own `source`. */
export async function readPart(
  source: ByteSource,
  request: ParquetPartRequest,
  signal?: AbortSignal,
): Promise<ParquetRows> {
  const { path, footer, columns, rowStart, rowEnd } = request;
  const stop = new AbortController();
  const file = await parquetFile(source, path, {
    signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
  });
  const metadata = parseFooter(footer, path);
  return await readRows(file, path, metadata, {
    columns,
    rowStart,
    rowEnd,
  }, stop);
}

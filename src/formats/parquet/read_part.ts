/**
 * One part of a Parquet read: its row groups fetched at once and decoded
 * by hyparquet as they arrive, as rows or as columns, here or in a pool's
 * worker.
 *
 * @module
 */

import type { FileMetaData } from "hyparquet";
import type { ByteSource } from "../source.ts";
import { joinColumns } from "./columns.ts";
import { decodeGroup, type GroupColumns } from "./decode_group.ts";
import { parseFooter } from "./footer.ts";
import { type ParquetBuffer, parquetFile } from "./parquet_file.ts";
import type {
  ParquetPart,
  ParquetPartRequest,
  ParquetRows,
} from "./parquet_parts.ts";
import { readGroups } from "./read_groups.ts";
import { planRead, type ReadRequest } from "./read_plan.ts";

/**
 * Rows `rowStart`..`rowEnd` of the asked columns of `file` (whose footer
 * gave `metadata`), fetching only their column chunks: as rows, or as
 * columns when `columnar`. A failure aborts `stop`, which `file` reads with.
 */
export async function readLocal(
  file: ParquetBuffer,
  path: string,
  metadata: FileMetaData,
  request: ReadRequest & { columnar?: boolean },
  stop: AbortController,
): Promise<ParquetPart> {
  const parts = planRead(metadata, request, path, dataEnd(file, metadata));
  const groups = await readGroups(
    file,
    parts,
    (part, bytes) => decodeGroup(path, metadata, part, bytes),
    stop,
  );
  return request.columnar ? joinColumns(groups) : groups.flatMap(toRows);
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
): Promise<ParquetPart> {
  const { path, footer, ...rest } = request;
  const stop = new AbortController();
  const file = await parquetFile(source, path, {
    signal: signal ? AbortSignal.any([signal, stop.signal]) : stop.signal,
  });
  return await readLocal(file, path, parseFooter(footer, path), rest, stop);
}

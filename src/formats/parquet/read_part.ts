/**
 * One part of a Parquet read: its row groups fetched at once and decoded
 * by hyparquet as they arrive, here or in a pool's worker.
 *
 * @module
 */

import type { FileMetaData } from "hyparquet";
import type { ByteSource } from "../source.ts";
import { joinColumns } from "./columns.ts";
import { decodeGroup } from "./decode_group.ts";
import { parseFooter } from "./footer.ts";
import { type ParquetBuffer, parquetFile } from "./parquet_file.ts";
import type {
  ParquetColumns,
  ParquetPart,
  ParquetPartRequest,
} from "./parquet_parts.ts";
import { readGroups } from "./read_groups.ts";
import { planRead, type ReadRequest } from "./read_plan.ts";

/**
 * What a read makes of the columns of one part, as it is decoded: `at` is
 * the index of its first row among the `total` rows read.
 */
export type EachPart<T> = (
  columns: ParquetColumns,
  at: number,
  total: number,
) => T;

/**
 * `each` of the columns of every row group holding rows
 * `rowStart`..`rowEnd` of `file` (whose footer gave `metadata`), in file
 * order, called as each group is decoded, fetching only the asked
 * columns' chunks. A failure aborts `stop`, which `file` reads with.
 */
export async function readLocal<T>(
  file: ParquetBuffer,
  path: string,
  metadata: FileMetaData,
  request: ReadRequest,
  stop: AbortController,
  each: EachPart<T>,
): Promise<T[]> {
  const parts = planRead(metadata, request, path, dataEnd(file, metadata));
  const { rowStart, rowEnd } = request;
  return await readGroups(
    file,
    parts,
    async (part, bytes) =>
      each(
        await decodeGroup(path, metadata, part, bytes),
        part.groupStart + part.selectStart - rowStart,
        rowEnd - rowStart,
      ),
    stop,
  );
}

/** Where the footer starts: the end of the row groups' data. */
export function dataEnd(file: ParquetBuffer, metadata: FileMetaData): number {
  return file.byteLength - 8 - metadata.metadata_length;
}

/** The footer a worker parsed last: the parts of one read all bring the same. */
let lastFooter: { bytes: Uint8Array; metadata: FileMetaData } | undefined;

/** `footer`'s metadata, parsed once for the parts of one read that a worker is sent. */
function footerMetadata(footer: Uint8Array, path: string): FileMetaData {
  const last = lastFooter?.bytes;
  const same = last !== undefined && last.byteLength === footer.byteLength &&
    last.every((byte, i) => byte === footer[i]);
  if (!same) {
    lastFooter = { bytes: footer, metadata: parseFooter(footer, path) };
  }
  return lastFooter!.metadata;
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
  const metadata = footerMetadata(footer, path);
  return joinColumns(
    await readLocal(file, path, metadata, rest, stop, (columns) => columns),
  );
}

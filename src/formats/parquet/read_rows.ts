/**
 * Rows of a Parquet file decoded by hyparquet with every codec, here or in
 * a pool's worker.
 *
 * @module
 */

import { type FileMetaData, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import type { ByteSource } from "../source.ts";
import { parseFooter } from "./footer.ts";
import { type ParquetBuffer, parquetFile } from "./parquet_file.ts";
import type { ParquetPartRequest, ParquetRows } from "./parquet_decoders.ts";

/** Rows `rowStart`..`rowEnd` of the columns asked for, fetching only their column chunks. */
export async function readRows(
  file: ParquetBuffer,
  metadata: FileMetaData,
  options: { columns?: string[]; rowStart: number; rowEnd: number },
): Promise<ParquetRows> {
  return await parquetReadObjects({
    file,
    metadata,
    compressors,
    ...options,
  });
}

/** A part a pool's worker was asked for, read from its own `source`. */
export async function readPart(
  source: ByteSource,
  request: ParquetPartRequest,
  signal?: AbortSignal,
): Promise<ParquetRows> {
  const { path, footer, ...options } = request;
  const file = await parquetFile(source, path, { signal });
  return await readRows(file, parseFooter(footer, path), options);
}

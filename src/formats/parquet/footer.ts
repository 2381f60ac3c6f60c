/**
 * A Parquet file's footer, read and parsed by hyparquet from the file's
 * last 64 KiB in the common case, and only as much of it as this reader
 * will hold.
 *
 * @module
 */

import {
  type FileMetaData,
  parquetMetadata,
  parquetMetadataAsync,
  parquetSchema,
} from "hyparquet";
import { concat } from "../../content/content.ts";
import { withValueTypes } from "./column_types.ts";
import { ownBuffer, type ParquetBuffer } from "./parquet_file.ts";
import { ParquetFormatError } from "./parquet_format_error.ts";

/** The first read from the end, which holds the whole footer of most files (pyarrow reads as much). */
export const FOOTER_GUESS = 64 << 10;
/** The longest footer read: a longer one is refused, not fetched. */
export const MAX_FOOTER = 64 << 20;

/**
 * A footer: the bytes hyparquet parses (the metadata and the 8-byte tail),
 * and what they say.
 */
export interface Footer {
  /** The metadata and the 8-byte tail, as at the end of the file. */
  bytes: Uint8Array;
  /** The parsed metadata, each column's annotation as `withValueTypes` says it. */
  metadata: FileMetaData;
}

/**
 * The footer of `file`, read by hyparquet's `parquetMetadataAsync`: its
 * last 64 KiB (all of it when smaller) and, only when the footer they
 * announce is longer, the rest of it. A file that does not end with
 * `PAR1`, or announces more footer than it holds or than
 * {@linkcode MAX_FOOTER}, fails with {@linkcode ParquetFormatError} and
 * nothing more is read.
 */
export async function readFooter(
  file: ParquetBuffer,
  path: string,
): Promise<Footer> {
  const size = file.byteLength;
  // The file also starts with PAR1: 4 + footer + 8 bytes at least.
  if (size < 12) {
    throw new ParquetFormatError(path, `it has only ${size} bytes`);
  }
  const reads: { start: number; bytes: Uint8Array }[] = [];
  const kept: ParquetBuffer = {
    byteLength: size,
    async slice(start, end = size) {
      if (reads.length > 0 && size - start > MAX_FOOTER) {
        throw new ParquetFormatError(
          path,
          `its footer length ${
            size - 8 - start
          } exceeds the ${MAX_FOOTER} bytes this reader reads`,
        );
      }
      const buffer = await file.slice(start, end);
      reads.push({ start, bytes: new Uint8Array(buffer) });
      return buffer;
    },
  };
  let metadata: FileMetaData;
  try {
    metadata = typed(
      await parquetMetadataAsync(kept, { initialFetchSize: FOOTER_GUESS }),
    );
  } catch (error) {
    throw footerError(path, size, error);
  }
  const read = reads.sort((a, b) => a.start - b.start).map((r) => r.bytes);
  const tail = concat(read);
  const bytes = tail.subarray(tail.byteLength - metadata.metadata_length - 8);
  return { bytes, metadata };
}

/**
 * The metadata of footer `bytes` (the metadata and the 8-byte tail), parsed
 * by hyparquet, with the value types this package gives.
 */
export function parseFooter(bytes: Uint8Array, path: string): FileMetaData {
  try {
    return typed(parquetMetadata(ownBuffer(bytes)));
  } catch (error) {
    throw footerError(path, bytes.byteLength, error);
  }
}

/** `metadata` with the value types this package gives, its schema checked. */
function typed(metadata: FileMetaData): FileMetaData {
  const withTypes = withValueTypes(metadata);
  parquetSchema(withTypes);
  return withTypes;
}

/**
 * hyparquet's complaint about a footer (or the schema it holds) of a file
 * of `size` bytes, said as this reader says it.
 */
function footerError(
  path: string,
  size: number,
  error: unknown,
): ParquetFormatError {
  if (error instanceof ParquetFormatError) return error;
  const text = error instanceof Error ? error.message : String(error);
  const length = /metadata length (\d+) exceeds/.exec(text)?.[1];
  const problem = /footer != PAR1/.test(text)
    ? "it does not end with PAR1"
    : length !== undefined
    ? `its footer length ${length} exceeds the ${size} bytes of the file`
    : `its footer does not parse (${text})`;
  return new ParquetFormatError(path, problem, { cause: error });
}

/**
 * A Parquet file's footer, read from its end in one range in the common
 * case, and parsed by hyparquet.
 *
 * @module
 */

import { type FileMetaData, parquetMetadata, parquetSchema } from "hyparquet";
import { withValueTypes } from "./column_types.ts";
import { ownBuffer, type ParquetBuffer } from "./parquet_file.ts";
import { ParquetFormatError } from "./parquet_format_error.ts";

/** The 8 bytes at the end: the footer's length and `PAR1`. */
const TAIL = 8;
/** `PAR1` read as a little-endian 32-bit integer. */
const MAGIC = 0x31524150;
/** The first read from the end, which holds the whole footer of most files (pyarrow reads as much). */
export const FOOTER_GUESS = 64 << 10;

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
 * Reads the last 64 KiB of `file` (all of it when smaller) and, only when
 * the footer they announce is longer, the rest of it; a file that does not
 * end with `PAR1`, or announces more footer than it holds, fails with
 * {@linkcode ParquetFormatError} and nothing more is read.
 */
export async function readFooter(
  file: ParquetBuffer,
  path: string,
): Promise<Footer> {
  const size = file.byteLength;
  // The file also starts with PAR1: 4 + footer + 8 bytes at least.
  if (size < 4 + TAIL) {
    throw new ParquetFormatError(path, `it has only ${size} bytes`);
  }
  const guess = Math.min(size, FOOTER_GUESS);
  const end = new Uint8Array(await file.slice(size - guess, size));
  const tail = new DataView(end.buffer, end.byteOffset + guess - TAIL, TAIL);
  if (tail.getUint32(4, true) !== MAGIC) {
    throw new ParquetFormatError(path, "it does not end with PAR1");
  }
  const length = tail.getUint32(0, true);
  if (length > size - 4 - TAIL) {
    throw new ParquetFormatError(
      path,
      `its footer length ${length} exceeds the ${size} bytes of the file`,
    );
  }
  let bytes = end.subarray(guess - TAIL - length);
  if (length + TAIL > guess) {
    bytes = new Uint8Array(length + TAIL);
    const start = size - TAIL - length;
    bytes.set(new Uint8Array(await file.slice(start, size - guess)));
    bytes.set(end, size - guess - start);
  }
  return { bytes, metadata: parseFooter(bytes, path) };
}

/**
 * The metadata of footer `bytes`, with the value types this package gives;
 * hyparquet's complaint, about the footer or the schema it holds, as a
 * {@linkcode ParquetFormatError}.
 */
export function parseFooter(bytes: Uint8Array, path: string): FileMetaData {
  try {
    const metadata = withValueTypes(parquetMetadata(ownBuffer(bytes)));
    parquetSchema(metadata);
    return metadata;
  } catch (error) {
    throw new ParquetFormatError(
      path,
      `its footer does not parse (${
        error instanceof Error ? error.message : error
      })`,
      { cause: error },
    );
  }
}

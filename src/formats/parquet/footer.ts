/**
 * A Parquet file's footer, read from its end in two ranges sized by it.
 *
 * @module
 */

import { type FileMetaData, parquetMetadata } from "hyparquet";
import { ownBuffer, type ParquetBuffer } from "./parquet_file.ts";
import { ParquetFormatError } from "./parquet_format_error.ts";

/** The 8 bytes at the end: the footer's length and `PAR1`. */
const TAIL = 8;
/** `PAR1` read as a little-endian 32-bit integer. */
const MAGIC = 0x31524150;

/**
 * A footer: the bytes hyparquet parses (the metadata and the 8-byte tail),
 * and what they say.
 */
export interface Footer {
  /** The metadata and the 8-byte tail, as at the end of the file. */
  bytes: Uint8Array;
  /** The parsed metadata. */
  metadata: FileMetaData;
}

/**
 * Reads the last 8 bytes of `file`, then exactly the footer they announce;
 * a file that does not end with `PAR1`, or announces more footer than it
 * holds, fails with {@linkcode ParquetFormatError} and nothing more is read.
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
  const tail = new DataView(await file.slice(size - TAIL, size));
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
  const start = size - TAIL - length;
  const bytes = new Uint8Array(length + TAIL);
  bytes.set(new Uint8Array(await file.slice(start, size - TAIL)));
  bytes.set(new Uint8Array(tail.buffer, tail.byteOffset, TAIL), length);
  return { bytes, metadata: parseFooter(bytes, path) };
}

/** The metadata of footer `bytes`; hyparquet's complaint as a {@linkcode ParquetFormatError}. */
export function parseFooter(bytes: Uint8Array, path: string): FileMetaData {
  try {
    return parquetMetadata(ownBuffer(bytes));
  } catch (error) {
    throw Object.assign(
      new ParquetFormatError(path, `its footer does not parse: ${error}`),
      { cause: error },
    );
  }
}

/**
 * Reads a classic NetCDF header by range: the bytes already fetched first,
 * then more, doubling, until it parses whole.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { MAX_HEADER_BYTES, ShortHeader } from "./cursor.ts";
import { NetcdfFormatError } from "./errors.ts";
import { type Header, parseHeader } from "./header.ts";

/**
 * The header of the classic file `path` of `size` bytes, whose first bytes
 * are `start`.
 */
export async function readHeader(
  source: ByteSource,
  path: string,
  size: number,
  start: Uint8Array,
  signal?: AbortSignal,
): Promise<Header> {
  let bytes = start;
  for (;;) {
    try {
      return parseHeader(bytes, path, size);
    } catch (error) {
      if (!(error instanceof ShortHeader)) throw error;
      const end = Math.min(
        size,
        Math.max(error.needed, Math.min(2 * bytes.length, MAX_HEADER_BYTES)),
      );
      const more = await source.catFile(path, {
        start: bytes.length,
        end,
        signal,
      });
      if (more.length !== end - bytes.length) {
        throw new NetcdfFormatError(
          path,
          `bytes ${bytes.length}–${end} of its header came back as ${more.length} bytes`,
        );
      }
      const joined = new Uint8Array(end);
      joined.set(bytes);
      joined.set(more, bytes.length);
      bytes = joined;
    }
  }
}

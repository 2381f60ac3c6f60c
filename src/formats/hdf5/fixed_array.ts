/**
 * Fixed array chunk indexes (layout version 4, datasets of fixed size): one
 * entry per chunk in C order of the chunk grid, paged when large.
 *
 * @module
 */

import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";

/** A chunk's place in the file, by its position in C order of the chunk grid. */
export interface IndexedChunk {
  index: number;
  offset: number;
  length: number;
  mask: number;
}

/** Reads one entry of a chunk index array: address, then for filtered chunks size and filter mask. */
export function readChunkEntry(
  c: Cursor,
  filtered: boolean,
  sizeBytes: number,
  chunkBytes: number,
) {
  const offset = c.offset();
  if (!filtered) return { offset, length: chunkBytes, mask: 0 };
  const length = c.uint(sizeBytes);
  return { offset, length, mask: c.u32() };
}

/** The stored chunks of the fixed array whose header is at `address`. */
export async function fixedArrayChunks(
  file: FileReader,
  sizes: Sizes,
  address: number,
  chunkBytes: number,
): Promise<IndexedChunk[]> {
  const head = new Cursor(
    await file.bytes({
      offset: address,
      length: 12 + sizes.lengths + sizes.offsets,
    }, "a fixed array header"),
    sizes,
    file.path,
    address,
  );
  head.signature("FAHD");
  head.skip(1);
  const filtered = head.u8() === 1;
  const entrySize = head.u8();
  const pageBits = head.u8();
  const count = head.length();
  const block = head.offset();
  const sizeBytes = entrySize - sizes.offsets - 4;
  if (
    entrySize < sizes.offsets ||
    (filtered && (sizeBytes < 1 || sizeBytes > 8)) || pageBits > 32
  ) {
    throw new Hdf5FormatError(
      file.path,
      `the fixed array header at address ${address} is damaged`,
    );
  }
  if (block === UNDEFINED_ADDRESS) return [];
  file.check({ offset: block, length: count * entrySize }, "a fixed array");
  const prefix = 6 + sizes.offsets;
  const pageEntries = 2 ** pageBits;
  const paged = count > pageEntries;
  const pages = paged ? Math.ceil(count / pageEntries) : 1;
  const bitmap = paged ? Math.ceil(pages / 8) : 0;
  const first = paged ? prefix + bitmap + 4 : prefix;
  const length = first + count * entrySize + (paged ? pages * 4 : 0);
  const bytes = await file.bytes({ offset: block, length }, "a fixed array");
  const c = new Cursor(bytes, sizes, file.path, block);
  c.signature("FADB");
  const chunks: IndexedChunk[] = [];
  c.pos = first;
  for (let index = 0; index < count; index++) {
    if (paged && index > 0 && index % pageEntries === 0) c.skip(4);
    const pageInitialised = !paged ||
      (bytes[prefix + (Math.floor(index / pageEntries) >> 3)] &
          (0x80 >> (Math.floor(index / pageEntries) & 7))) !== 0;
    const entry = readChunkEntry(c, filtered, sizeBytes, chunkBytes);
    if (pageInitialised && entry.offset !== UNDEFINED_ADDRESS) {
      chunks.push({ index, ...entry });
    }
  }
  return chunks;
}

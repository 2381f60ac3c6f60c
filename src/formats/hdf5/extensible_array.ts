/**
 * Extensible array chunk indexes (layout version 4, datasets with one
 * unlimited dimension): an index block holding the first entries and the
 * addresses of data blocks and super blocks, read level by level.
 *
 * @module
 */

import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";
import { type IndexedChunk, readChunkEntry } from "./fixed_array.ts";

/** A data block of entries: where it is, the index of its first entry, how many it holds. */
interface DataBlock {
  address: number;
  first: number;
  count: number;
}

/** The stored chunks of the extensible array whose header is at `address`, by linear chunk index. */
export async function extensibleArrayChunks(
  file: FileReader,
  sizes: Sizes,
  address: number,
  chunkBytes: number,
): Promise<IndexedChunk[]> {
  const what = "an extensible array";
  const h = new Cursor(
    await file.bytes({
      offset: address,
      length: 16 + 6 * sizes.lengths + sizes.offsets,
    }, what),
    sizes,
    file.path,
    address,
  );
  h.signature("EAHD");
  h.skip(1);
  const filtered = h.u8() === 1;
  const entrySize = h.u8();
  const maxBits = h.u8();
  const indexEntries = h.u8();
  const blockMin = h.u8();
  const superMinPointers = h.u8();
  const pageBits = h.u8();
  for (let i = 0; i < 6; i++) h.length();
  const indexBlock = h.offset();
  const sizeBytes = entrySize - sizes.offsets - 4;
  if (
    blockMin === 0 || superMinPointers === 0 || maxBits > 64 ||
    (filtered && sizeBytes < 1)
  ) {
    throw new Hdf5FormatError(
      file.path,
      `the extensible array header at address ${address} is damaged`,
    );
  }
  if (indexBlock === UNDEFINED_ADDRESS) return [];
  // The super block table (H5EA__hdr_init): super block u has 2^⌊u/2⌋ data blocks of 2^⌊(u+1)/2⌋ × blockMin entries.
  const superCount = 1 + maxBits - Math.log2(blockMin);
  const supers: { blocks: number; entries: number; first: number }[] = [];
  for (let u = 0, first = indexEntries; u < superCount; u++) {
    const blocks = 2 ** Math.floor(u / 2);
    const entries = 2 ** Math.floor((u + 1) / 2) * blockMin;
    supers.push({ blocks, entries, first });
    first += blocks * entries;
  }
  const directSupers = 2 * Math.log2(superMinPointers);
  const directBlocks = 2 * (superMinPointers - 1);
  const superPointers = Math.max(0, superCount - directSupers);
  const offsetSize = Math.ceil(maxBits / 8);
  const entryCursor = (bytes: Uint8Array, at: number) =>
    new Cursor(bytes, sizes, file.path, at);
  const chunks: IndexedChunk[] = [];
  const readEntries = (c: Cursor, first: number, count: number) => {
    for (let i = 0; i < count; i++) {
      const entry = readChunkEntry(c, filtered, sizeBytes, chunkBytes);
      if (entry.offset !== UNDEFINED_ADDRESS) {
        chunks.push({ index: first + i, ...entry });
      }
    }
  };

  const prefix = 6 + sizes.offsets;
  const ib = entryCursor(
    await file.bytes({
      offset: indexBlock,
      length: prefix + indexEntries * entrySize +
        (directBlocks + superPointers) * sizes.offsets,
    }, what),
    indexBlock,
  );
  ib.signature("EAIB");
  ib.pos = prefix;
  readEntries(ib, 0, indexEntries);
  const dataBlocks: DataBlock[] = [];
  for (let u = 0, block = 0; u < directSupers && u < superCount; u++) {
    for (let b = 0; b < supers[u].blocks; b++, block++) {
      const at = ib.offset();
      if (block >= directBlocks) break;
      if (at !== UNDEFINED_ADDRESS) {
        dataBlocks.push({
          address: at,
          first: supers[u].first + b * supers[u].entries,
          count: supers[u].entries,
        });
      }
    }
  }
  const superBlocks = Array.from(
    { length: superPointers },
    (_, i) => ({ address: ib.offset(), u: directSupers + i }),
  )
    .filter(({ address }) => address !== UNDEFINED_ADDRESS);

  const pageEntries = 2 ** pageBits;
  const superPrefix = prefix + offsetSize;
  await file.prefetch(
    superBlocks.map(({ address, u }) => ({
      offset: address,
      length: superPrefix + supers[u].blocks * sizes.offsets + 8,
    })),
    what,
  );
  await Promise.all(superBlocks.map(async ({ address, u }) => {
    const { blocks, entries, first } = supers[u];
    const bitmap = entries > pageEntries
      ? Math.ceil(blocks * (entries / pageEntries) / 8)
      : 0;
    const sb = entryCursor(
      await file.bytes({
        offset: address,
        length: superPrefix + bitmap + blocks * sizes.offsets,
      }, what),
      address,
    );
    sb.signature("EASB");
    sb.pos = superPrefix + bitmap;
    for (let b = 0; b < blocks; b++) {
      const at = sb.offset();
      if (at !== UNDEFINED_ADDRESS) {
        dataBlocks.push({
          address: at,
          first: first + b * entries,
          count: entries,
        });
      }
    }
  }));

  const blockPrefix = prefix + offsetSize;
  const blockLength = ({ count }: DataBlock) =>
    count > pageEntries
      ? blockPrefix + 4 + count * entrySize + (count / pageEntries) * 4
      : blockPrefix + count * entrySize;
  await file.prefetch(
    dataBlocks.map((block) => ({
      offset: block.address,
      length: blockLength(block),
    })),
    what,
  );
  await Promise.all(dataBlocks.map(async (block) => {
    const c = entryCursor(
      await file.bytes(
        { offset: block.address, length: blockLength(block) },
        what,
      ),
      block.address,
    );
    c.signature("EADB");
    c.pos = blockPrefix;
    if (block.count <= pageEntries) {
      return readEntries(c, block.first, block.count);
    }
    c.skip(4);
    for (let page = 0; page < block.count / pageEntries; page++) {
      readEntries(c, block.first + page * pageEntries, pageEntries);
      c.skip(4);
    }
  }));
  return chunks;
}

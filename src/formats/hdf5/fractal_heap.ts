/**
 * Fractal heaps: where dense groups keep their link messages and dense
 * attribute storage its attribute messages. Objects are found by heap ID
 * through the heap's doubling table of direct and indirect blocks.
 *
 * @module
 */

import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";
import { btreeV2Records } from "./btree_v2.ts";

/** A fractal heap's header fields needed to find objects. */
export interface FractalHeap {
  address: number;
  idLength: number;
  width: number;
  startBlock: number;
  maxDirectBlock: number;
  /** Bytes of a heap offset (in IDs and block headers). */
  offsetSize: number;
  /** Bytes of a managed object's length in an ID. */
  lengthSize: number;
  root: number;
  rootRows: number;
  /** Address of the v2 B-tree of huge objects (those stored outside the heap). */
  hugeBtree: number;
}

/** Reads the header of the fractal heap at `address`. */
export async function readFractalHeap(
  file: FileReader,
  sizes: Sizes,
  address: number,
): Promise<FractalHeap> {
  const length = 22 + 12 * sizes.lengths + 3 * sizes.offsets;
  const c = new Cursor(
    await file.bytes({ offset: address, length }, "a fractal heap"),
    sizes,
    file.path,
    address,
  );
  c.signature("FRHP");
  c.skip(1);
  const idLength = c.u16();
  const filterLength = c.u16();
  c.skip(1);
  const maxManaged = c.u32();
  c.length();
  const hugeBtree = c.offset();
  c.length();
  c.offset();
  for (let i = 0; i < 8; i++) c.length();
  const width = c.u16();
  const startBlock = c.length();
  const maxDirectBlock = c.length();
  const maxHeapBits = c.u16();
  c.skip(2);
  const root = c.offset();
  const rootRows = c.u16();
  if (filterLength > 0) {
    throw new Hdf5FormatError(
      file.path,
      `the fractal heap at address ${address} is filtered, which is not supported`,
    );
  }
  if (width === 0 || startBlock === 0 || maxDirectBlock < startBlock) {
    throw new Hdf5FormatError(
      file.path,
      `the fractal heap at address ${address} is damaged`,
    );
  }
  const offsetSize = Math.ceil(maxHeapBits / 8);
  const lengthSize = Math.min(
    Math.ceil(Math.log2(maxDirectBlock) / 8),
    Math.floor(Math.log2(maxManaged) / 8) + 1,
  );
  return {
    address,
    idLength,
    width,
    startBlock,
    maxDirectBlock,
    offsetSize,
    lengthSize,
    root,
    rootRows,
    hugeBtree,
  };
}

/** The object a heap ID names. */
export async function heapObject(
  file: FileReader,
  sizes: Sizes,
  heap: FractalHeap,
  id: Uint8Array,
): Promise<Uint8Array> {
  const c = new Cursor(id, sizes, file.path);
  const flags = c.u8();
  const kind = (flags >> 4) & 3;
  if (kind === 2) return id.subarray(1, 1 + (flags & 0x0f) + 1);
  if (kind === 1) return await hugeObject(file, sizes, heap, c);
  if (kind !== 0) {
    throw new Hdf5FormatError(
      file.path,
      `a fractal heap ID of unknown kind ${kind}`,
    );
  }
  const offset = c.uint(heap.offsetSize);
  const length = c.uint(heap.lengthSize);
  const block = await directBlockOf(file, sizes, heap, offset);
  return await file.bytes({
    offset: block.address + offset - block.start,
    length,
  }, "a fractal heap object");
}

/**
 * A huge object: stored by itself in the file, where its heap ID says when
 * the ID is long enough, else where the heap's B-tree of huge objects does.
 */
async function hugeObject(
  file: FileReader,
  sizes: Sizes,
  heap: FractalHeap,
  id: Cursor,
): Promise<Uint8Array> {
  let where: { offset: number; length: number } | undefined;
  if (heap.idLength >= 1 + sizes.offsets + sizes.lengths) {
    where = { offset: id.offset(), length: id.length() };
  } else {
    const wanted = id.uint(Math.min(heap.idLength - 1, sizes.lengths));
    const { type, records } = await btreeV2Records(
      file,
      sizes,
      heap.hugeBtree,
    );
    if (type !== 1) {
      throw new Hdf5FormatError(
        file.path,
        `the huge objects of the fractal heap at ${heap.address} are filtered, which is not supported`,
      );
    }
    for (const record of records) {
      const r = new Cursor(record, sizes, file.path);
      const offset = r.offset();
      const length = r.length();
      if (r.length() === wanted) where = { offset, length };
    }
    if (where === undefined) {
      throw new Hdf5FormatError(
        file.path,
        `huge object ${wanted} is not in the B-tree of the fractal heap at ${heap.address}`,
      );
    }
  }
  return await file.bytes(where, "a huge fractal heap object");
}

/** The direct block holding heap offset `offset`: its address and first heap offset. */
async function directBlockOf(
  file: FileReader,
  sizes: Sizes,
  heap: FractalHeap,
  offset: number,
): Promise<{ address: number; start: number }> {
  let address = heap.root;
  let rows = heap.rootRows;
  let start = 0;
  const maxDirectRows = Math.log2(heap.maxDirectBlock) -
    Math.log2(heap.startBlock) + 2;
  for (let depth = 0; rows > 0; depth++) {
    if (depth > 32) {
      throw new Hdf5FormatError(
        file.path,
        `the fractal heap at ${heap.address} nests too deep`,
      );
    }
    const directRows = Math.min(rows, maxDirectRows);
    const entries = directRows * heap.width +
      Math.max(0, rows - maxDirectRows) * heap.width;
    const header = 5 + sizes.offsets + heap.offsetSize;
    const bytes = await file.bytes({
      offset: address,
      length: header + entries * sizes.offsets,
    }, "a fractal heap block");
    const c = new Cursor(bytes, sizes, file.path, address);
    c.signature("FHIB");
    c.skip(header - 4);
    const children = Array.from({ length: entries }, () => c.offset());
    let rowStart = start;
    let found = false;
    for (let row = 0; row < rows && !found; row++) {
      const size = heap.startBlock * 2 ** Math.max(0, row - 1);
      for (let col = 0; col < heap.width; col++) {
        const blockStart = rowStart + col * size;
        if (offset < blockStart || offset >= blockStart + size) continue;
        const child = children[row * heap.width + col];
        if (child === UNDEFINED_ADDRESS) {
          throw new Hdf5FormatError(
            file.path,
            `heap offset ${offset} is in an unallocated block`,
          );
        }
        if (row < maxDirectRows) return { address: child, start: blockStart };
        address = child;
        start = blockStart;
        rows = Math.log2(size) - Math.log2(heap.startBlock * heap.width) + 1;
        found = true;
        break;
      }
      rowStart += size * heap.width;
    }
    if (!found) {
      throw new Hdf5FormatError(
        file.path,
        `heap offset ${offset} is outside the fractal heap`,
      );
    }
  }
  return { address, start };
}

/**
 * Data layout messages: where a dataset's elements are (compact, contiguous
 * or chunked, and how chunks are indexed).
 *
 * @module
 */

import type { Cursor } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";

/** Chunk index types of a version 4 layout. */
export const ChunkIndex = {
  btreeV1: 0,
  singleChunk: 1,
  implicit: 2,
  fixedArray: 3,
  extensibleArray: 4,
  btreeV2: 5,
} as const;

/** A dataset's layout. */
export type Layout =
  | { kind: "compact"; data: Uint8Array; at: number }
  | { kind: "contiguous"; address: number; size: number }
  | {
    kind: "chunked";
    /** Chunk shape, without the element-size axis. */
    chunks: number[];
    /** Address of the index (B-tree, array, or the one chunk). */
    address: number;
    index: number;
    /** Index parameters: fixed/extensible array page bits, … */
    params: number[];
    /** A single chunk's stored size and filter mask, when filtered. */
    single?: { size: number; mask: number };
  }
  | { kind: "unsupported"; problem: string };

/** Reads a data layout message of versions 1 to 4. */
export function readLayout(c: Cursor): Layout {
  const version = c.u8();
  if (version === 1 || version === 2) {
    const dims = c.u8();
    const cls = c.u8();
    c.skip(5);
    const address = cls === 0 ? -1 : c.offset();
    const sizes = Array.from({ length: dims }, () => c.u32());
    if (cls === 0) {
      const size = c.u32();
      return { kind: "compact", at: c.at + c.pos, data: c.take(size) };
    }
    if (cls === 1) {
      return {
        kind: "contiguous",
        address,
        size: sizes.reduce((a, b) => a * b, 1),
      };
    }
    return {
      kind: "chunked",
      chunks: sizes.slice(0, -1),
      address,
      index: ChunkIndex.btreeV1,
      params: [],
    };
  }
  if (version !== 3 && version !== 4) {
    throw new Hdf5FormatError(
      c.path,
      `data layout version ${version} at address ${c.at}`,
    );
  }
  const cls = c.u8();
  if (cls === 0) {
    const size = c.u16();
    return { kind: "compact", at: c.at + c.pos, data: c.take(size) };
  }
  if (cls === 1) {
    return { kind: "contiguous", address: c.offset(), size: c.length() };
  }
  if (cls !== 2) {
    return {
      kind: "unsupported",
      problem: `layout class ${cls} (virtual datasets) is not supported`,
    };
  }
  if (version === 3) {
    const dims = c.u8();
    const address = c.offset();
    const sizes = Array.from({ length: dims }, () => c.u32());
    return {
      kind: "chunked",
      chunks: sizes.slice(0, -1),
      address,
      index: ChunkIndex.btreeV1,
      params: [],
    };
  }
  const flags = c.u8();
  const dims = c.u8();
  const width = c.u8();
  const sizes = Array.from({ length: dims }, () => c.uint(width));
  const index = c.u8();
  const params: number[] = [];
  let single: { size: number; mask: number } | undefined;
  switch (index) {
    case ChunkIndex.singleChunk:
      if (flags & 2) single = { size: c.length(), mask: c.u32() };
      break;
    case ChunkIndex.implicit:
      break;
    case ChunkIndex.fixedArray:
      params.push(c.u8());
      break;
    case ChunkIndex.extensibleArray:
      for (let i = 0; i < 5; i++) params.push(c.u8());
      break;
    case ChunkIndex.btreeV2:
      params.push(c.u32(), c.u8(), c.u8());
      break;
    default:
      return {
        kind: "unsupported",
        problem: `chunk index type ${index} is not known`,
      };
  }
  const address = c.offset();
  return {
    kind: "chunked",
    chunks: sizes.slice(0, -1),
    address,
    index,
    params,
    single,
  };
}

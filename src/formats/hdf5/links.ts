/**
 * New-style groups: link messages in the object header (compact storage).
 *
 * @module
 */

import { Cursor, type Sizes } from "./cursor.ts";

/** A hard link of a group: a child's name and object header address. */
export interface Link {
  name: string;
  address: number;
}

/** Reads a link message; `undefined` for a soft or external link. */
export function readLink(
  data: Uint8Array,
  sizes: Sizes,
  path: string,
  at: number,
): Link | undefined {
  const c = new Cursor(data, sizes, path, at);
  c.skip(1);
  const flags = c.u8();
  const type = flags & 0x08 ? c.u8() : 0;
  if (flags & 0x04) c.skip(8);
  if (flags & 0x10) c.skip(1);
  const nameLength = c.uint(1 << (flags & 3));
  const name = new TextDecoder().decode(c.take(nameLength));
  if (type !== 0) return undefined;
  return { name, address: c.offset() };
}

/** Where dense storage is: a fractal heap and its name index. */
export interface DenseInfo {
  heap: number;
  nameIndex: number;
}

/** The fractal heap and name index of a link info or attribute info message; undefined addresses when compact. */
export function readDenseInfo(
  data: Uint8Array,
  sizes: Sizes,
  path: string,
  at: number,
  attribute: boolean,
): DenseInfo {
  const c = new Cursor(data, sizes, path, at);
  c.skip(1);
  const flags = c.u8();
  if (flags & 1) c.skip(attribute ? 2 : 8);
  return { heap: c.offset(), nameIndex: c.offset() };
}

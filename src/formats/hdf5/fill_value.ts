/**
 * Fill value messages (old and new): the bytes of the value unwritten
 * elements read as.
 *
 * @module
 */

import type { Cursor } from "./cursor.ts";

/** Reads a new-style fill value message; `undefined` when no value is defined. */
export function readFillValue(c: Cursor): Uint8Array | undefined {
  const version = c.u8();
  if (version === 3) {
    const flags = c.u8();
    if (!(flags & 0x20)) return undefined;
    return c.take(c.u32());
  }
  c.skip(2);
  const defined = c.u8();
  if (version === 2 && !defined) return undefined;
  const size = c.u32();
  return size === 0 ? undefined : c.take(size);
}

/** Reads an old-style fill value message. */
export function readOldFillValue(c: Cursor): Uint8Array | undefined {
  const size = c.u32();
  return size === 0 ? undefined : c.take(size);
}

/**
 * HDF5 strings as JS strings: fixed-length ones cut as their padding says,
 * variable-length ones from the global heap; and chunks of them written in
 * the `vlen-utf8` encoding that zarrita decodes into strings.
 *
 * @module
 */

import { Cursor } from "./cursor.ts";
import type { Datatype } from "./datatype.ts";
import type { GlobalHeap } from "./global_heap.ts";

const decoder = new TextDecoder();

/** One stored string without its terminator or padding. */
function trimmed(item: Uint8Array, padding: number): string {
  if (padding === 0) {
    const end = item.indexOf(0);
    return decoder.decode(end < 0 ? item : item.subarray(0, end));
  }
  const pad = padding === 2 ? 0x20 : 0;
  let end = item.length;
  while (end > 0 && (item[end - 1] === pad || item[end - 1] === 0)) end--;
  return decoder.decode(item.subarray(0, end));
}

/**
 * The `count` strings of a string type (`type.text` set) in `bytes`:
 * fixed-length ones in place, variable-length ones read from `heap`.
 */
export async function decodeStrings(
  type: Datatype,
  bytes: Uint8Array,
  count: number,
  heap: GlobalHeap,
): Promise<string[]> {
  const padding = type.text?.padding ?? 0;
  if (type.vlen === undefined) {
    return Array.from(
      { length: count },
      (_, i) =>
        trimmed(bytes.subarray(i * type.size, (i + 1) * type.size), padding),
    );
  }
  const items = await vlenItems(bytes, count, 1, heap);
  return items.map((item) => trimmed(item, padding === 2 ? 2 : 1));
}

/**
 * The `count` items of variable-length values in `bytes`, each from the
 * global heap, of `elementSize` bytes per element.
 */
export async function vlenItems(
  bytes: Uint8Array,
  count: number,
  elementSize: number,
  heap: GlobalHeap,
): Promise<Uint8Array[]> {
  const c = new Cursor(bytes, heap.sizes, heap.file.path);
  const refs = Array.from({ length: count }, () => {
    const length = c.u32();
    return { length, address: c.offset(), index: c.u32() };
  });
  return await Promise.all(
    refs.map(async ({ length, address, index }) =>
      length === 0
        ? new Uint8Array(0)
        : (await heap.object(address, index)).subarray(0, length * elementSize)
    ),
  );
}

/** Strings in numcodecs' `vlen-utf8` encoding: a count, then each length and its UTF-8 bytes. */
export function encodeVlenUtf8(strings: string[]): Uint8Array {
  const encoder = new TextEncoder();
  const encoded = strings.map((s) => encoder.encode(s));
  const out = new Uint8Array(
    4 + encoded.reduce((n, e) => n + 4 + e.length, 0),
  );
  const view = new DataView(out.buffer);
  view.setUint32(0, strings.length, true);
  let at = 4;
  for (const e of encoded) {
    view.setUint32(at, e.length, true);
    out.set(e, at + 4);
    at += 4 + e.length;
  }
  return out;
}

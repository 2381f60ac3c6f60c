/**
 * Old-style groups: a symbol table message naming a v1 B-tree of symbol
 * table nodes and a local heap of link names.
 *
 * @module
 */

import { btreeV1Leaves } from "./btree_v1.ts";
import { Cursor, type Sizes } from "./cursor.ts";
import type { FileReader } from "./file_reader.ts";
import type { Link } from "./links.ts";

/** The links of a group stored as a symbol table. */
export async function symbolTableLinks(
  file: FileReader,
  sizes: Sizes,
  message: Uint8Array,
): Promise<Link[]> {
  const m = new Cursor(message, sizes, file.path);
  const btree = m.offset();
  const heapAddress = m.offset();
  const [leaves, heap] = await Promise.all([
    btreeV1Leaves(file, sizes, btree, 0, sizes.lengths),
    localHeap(file, sizes, heapAddress),
  ]);
  const entrySize = 2 * sizes.offsets + 24;
  await file.prefetch(
    leaves.map(({ child }) => ({ offset: child, length: 8 + 32 * entrySize })),
    "a symbol table node",
  );
  const nodes = await Promise.all(leaves.map(async ({ child }) => {
    const head = new Cursor(
      await file.bytes({ offset: child, length: 8 }, "a symbol table node"),
      sizes,
      file.path,
      child,
    );
    head.signature("SNOD");
    head.skip(2);
    const count = head.u16();
    const body = await file.bytes({
      offset: child + 8,
      length: count * entrySize,
    }, "a symbol table node");
    const c = new Cursor(body, sizes, file.path, child + 8);
    return Array.from({ length: count }, () => {
      const nameOffset = c.offset();
      const address = c.offset();
      c.skip(24);
      return { name: nameAt(heap, nameOffset, file.path, sizes), address };
    });
  }));
  return nodes.flat();
}

async function localHeap(
  file: FileReader,
  sizes: Sizes,
  address: number,
): Promise<Uint8Array> {
  const head = await file.bytes({
    offset: address,
    length: 8 + 2 * sizes.lengths + sizes.offsets,
  }, "a local heap");
  const c = new Cursor(head, sizes, file.path, address);
  c.signature("HEAP");
  c.skip(4);
  const size = c.length();
  c.length();
  const data = c.offset();
  return await file.bytes({ offset: data, length: size }, "a local heap");
}

function nameAt(
  heap: Uint8Array,
  offset: number,
  path: string,
  sizes: Sizes,
): string {
  const c = new Cursor(heap, sizes, path);
  c.skip(offset);
  return c.cString();
}

/**
 * Version 2 B-trees (dense link and attribute name indexes, and chunk
 * indexes of the newest layout), walked level by level.
 *
 * @module
 */

import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";

/** Signature, version, type and checksum bytes of a node. */
const NODE_OVERHEAD = 10;

/** Bytes that hold any count up to `n`. */
function countBytes(n: number): number {
  return Math.floor(Math.log2(Math.max(1, n)) / 8) + 1;
}

/** Every record of the v2 B-tree whose header is at `address`, and the tree's record type. */
export async function btreeV2Records(
  file: FileReader,
  sizes: Sizes,
  address: number,
): Promise<{ type: number; records: Uint8Array[] }> {
  if (address === UNDEFINED_ADDRESS) return { type: 0, records: [] };
  const head = await file.bytes({
    offset: address,
    length: 16 + 2 * sizes.offsets + sizes.lengths,
  }, "a B-tree header");
  const c = new Cursor(head, sizes, file.path, address);
  c.signature("BTHD");
  c.skip(1);
  const type = c.u8();
  const nodeSize = c.u32();
  const recordSize = c.u16();
  const depth = c.u16();
  c.skip(2);
  const root = c.offset();
  const rootRecords = c.u16();
  if (recordSize === 0 || nodeSize <= NODE_OVERHEAD || depth > 64) {
    throw new Hdf5FormatError(
      file.path,
      `the B-tree header at address ${address} is damaged`,
    );
  }
  const leafMost = Math.floor((nodeSize - NODE_OVERHEAD) / recordSize);
  const countSize = countBytes(leafMost);
  const totalSizes = [0];
  const cumulative = [leafMost];
  for (let d = 1; d <= depth; d++) {
    const pointer = sizes.offsets + countSize + (d > 1 ? totalSizes[d - 1] : 0);
    const most = Math.floor(
      (nodeSize - NODE_OVERHEAD - pointer) / (recordSize + pointer),
    );
    cumulative.push((most + 1) * cumulative[d - 1] + most);
    totalSizes.push(countBytes(cumulative[d]));
  }
  const records: Uint8Array[] = [];
  let level = root === UNDEFINED_ADDRESS
    ? []
    : [{ address: root, count: rootRecords }];
  for (let d = depth; level.length > 0; d--) {
    if (level.length * NODE_OVERHEAD > file.size) {
      throw new Hdf5FormatError(
        file.path,
        `the B-tree at address ${address} has more nodes than the file can hold`,
      );
    }
    await file.prefetch(
      level.map(({ address }) => ({ offset: address, length: nodeSize })),
      "a B-tree node",
    );
    const children = await Promise.all(level.map(async (node) => {
      const leaf = d === 0;
      const pointer = sizes.offsets + countSize +
        (d > 1 ? totalSizes[d - 1] : 0);
      const length = 6 + node.count * recordSize +
        (leaf ? 0 : (node.count + 1) * pointer);
      const nc = new Cursor(
        await file.bytes({ offset: node.address, length }, "a B-tree node"),
        sizes,
        file.path,
        node.address,
      );
      nc.signature(leaf ? "BTLF" : "BTIN");
      nc.skip(2);
      for (let i = 0; i < node.count; i++) records.push(nc.take(recordSize));
      if (leaf) return [];
      return Array.from({ length: node.count + 1 }, () => {
        const child = { address: nc.offset(), count: nc.uint(countSize) };
        if (d > 1) nc.skip(totalSizes[d - 1]);
        return child;
      });
    }));
    level = children.flat();
    if (d === 0 && level.length > 0) {
      throw new Hdf5FormatError(
        file.path,
        `the B-tree at address ${address} is deeper than it says`,
      );
    }
  }
  return { type, records };
}

/**
 * Version 1 B-trees (group nodes and chunk indexes), walked level by level:
 * all nodes of a level are fetched at once.
 *
 * @module
 */

import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";

/** Entries per node guessed for a first read (2K, K = 32 by default). */
const GUESSED_ENTRIES = 64;

/** A leaf entry: its key before it and the child it points to. */
export interface BtreeV1Entry {
  key: Uint8Array;
  child: number;
}

/**
 * Every leaf entry of the v1 B-tree of `type` (0 group, 1 chunks) at
 * `root`, in key order. `keySize` is the bytes of one key.
 */
export async function btreeV1Leaves(
  file: FileReader,
  sizes: Sizes,
  root: number,
  type: 0 | 1,
  keySize: number,
): Promise<BtreeV1Entry[]> {
  if (root === UNDEFINED_ADDRESS) return [];
  const header = 8 + 2 * sizes.offsets;
  const entryBytes = (n: number) =>
    header + (n + 1) * keySize + n * sizes.offsets;
  let level = [root];
  let expectedLevel: number | undefined;
  for (;;) {
    await file.prefetch(
      level.map((offset) => ({ offset, length: entryBytes(GUESSED_ENTRIES) })),
      "a B-tree node",
    );
    const nodes = await Promise.all(level.map(async (address) => {
      const head = new Cursor(
        await file.bytes({ offset: address, length: header }, "a B-tree node"),
        sizes,
        file.path,
        address,
      );
      head.signature("TREE");
      const nodeType = head.u8();
      const nodeLevel = head.u8();
      const used = head.u16();
      if (
        nodeType !== type ||
        (expectedLevel !== undefined && nodeLevel !== expectedLevel)
      ) {
        throw new Hdf5FormatError(
          file.path,
          `the B-tree node at address ${address} is of type ${nodeType} and level ${nodeLevel}, not type ${type}${
            expectedLevel === undefined ? "" : ` level ${expectedLevel}`
          }`,
        );
      }
      const body = await file.bytes({
        offset: address + header,
        length: entryBytes(used) - header,
      }, "a B-tree node");
      const c = new Cursor(body, sizes, file.path, address + header);
      const entries: BtreeV1Entry[] = [];
      for (let i = 0; i < used; i++) {
        const key = c.take(keySize);
        entries.push({ key, child: c.offset() });
      }
      return { level: nodeLevel, entries };
    }));
    const nodeLevel = nodes[0]?.level ?? 0;
    const entries = nodes.flatMap((node) => node.entries);
    if (nodeLevel === 0) return entries;
    expectedLevel = nodeLevel - 1;
    level = entries.map((entry) => entry.child);
    if (level.length * header > file.size) {
      throw new Hdf5FormatError(
        file.path,
        `the B-tree at address ${root} has more nodes than the file can hold`,
      );
    }
  }
}

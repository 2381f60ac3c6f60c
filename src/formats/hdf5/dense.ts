/**
 * Dense storage: the links of a large group and the attributes of an object
 * with many, kept in a fractal heap and indexed by name in a v2 B-tree.
 *
 * @module
 */

import { type Attribute, readAttribute } from "./attributes.ts";
import { btreeV2Records } from "./btree_v2.ts";
import type { CommittedTypes } from "./committed_types.ts";
import { Cursor, type Sizes } from "./cursor.ts";
import { FormatError } from "../../base/format_error.ts";
import type { FileReader } from "./file_reader.ts";
import { heapObject, readFractalHeap } from "./fractal_heap.ts";
import { type DenseInfo, type Link, readLink } from "./links.ts";

/** The hard links of a group in dense storage. */
export async function denseLinks(
  file: FileReader,
  sizes: Sizes,
  info: DenseInfo,
): Promise<Link[]> {
  const [heap, { records }] = await Promise.all([
    readFractalHeap(file, sizes, info.heap),
    btreeV2Records(file, sizes, info.nameIndex),
  ]);
  const links = await Promise.all(records.map(async (record) => {
    const object = await heapObject(
      file,
      sizes,
      heap,
      record.subarray(4, 4 + heap.idLength),
    );
    return readLink(object, sizes, file.path, 0);
  }));
  return links.filter((link) => link !== undefined);
}

/**
 * The attributes of an object in dense storage (shared ones left out), and
 * why each one that cannot be read cannot.
 */
export async function denseAttributes(
  file: FileReader,
  sizes: Sizes,
  info: DenseInfo,
  types: CommittedTypes,
): Promise<{ attributes: Attribute[]; problems: string[] }> {
  const [heap, { records }] = await Promise.all([
    readFractalHeap(file, sizes, info.heap),
    btreeV2Records(file, sizes, info.nameIndex),
  ]);
  const own = records.filter((record) => (record[8] & 1) === 0)
    .sort((a, b) => creationOrder(a) - creationOrder(b));
  const read = await Promise.all(own.map(async (record) => {
    try {
      const object = await heapObject(file, sizes, heap, record.subarray(0, 8));
      return await readAttribute(new Cursor(object, sizes, file.path), types);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      return `attribute number ${creationOrder(record)}: ${error.problem}`;
    }
  }));
  return {
    attributes: read.filter((a) => typeof a !== "string"),
    problems: read.filter((a) => typeof a === "string"),
  };
}

function creationOrder(record: Uint8Array): number {
  return new DataView(record.buffer, record.byteOffset + 9, 4).getUint32(
    0,
    true,
  );
}

/**
 * Attribute messages and their values as JSON.
 *
 * @module
 */

import { Cursor } from "./cursor.ts";
import { type Dataspace, readDataspace } from "./dataspace.ts";
import { type Datatype, readDatatype } from "./datatype.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { GlobalHeap } from "./global_heap.ts";
import { decodeNumbers, decodeStrings, type JsonValue } from "./values.ts";

/** An attribute as stored. */
export interface Attribute {
  name: string;
  type: Datatype;
  space: Dataspace | undefined;
  data: Uint8Array;
}

/** Reads an attribute message (versions 1 to 3). */
export function readAttribute(c: Cursor): Attribute {
  const version = c.u8();
  if (version < 1 || version > 3) {
    throw new Hdf5FormatError(
      c.path,
      `attribute message version ${version} at address ${c.at}`,
    );
  }
  c.skip(1);
  const nameSize = c.u16();
  const typeSize = c.u16();
  const spaceSize = c.u16();
  if (version === 3) c.skip(1);
  const pad = (n: number) => version === 1 ? Math.ceil(n / 8) * 8 : n;
  const name = new TextDecoder().decode(
    c.take(pad(nameSize)).subarray(0, Math.max(0, nameSize - 1)),
  );
  const typeAt = c.at + c.pos;
  const type = readDatatype(
    new Cursor(c.take(pad(typeSize)), c.sizes, c.path, typeAt),
  );
  const spaceAt = c.at + c.pos;
  const space = readDataspace(
    new Cursor(c.take(pad(spaceSize)), c.sizes, c.path, spaceAt),
  );
  const count = elementCount(space);
  const data = c.take(count * type.size);
  return { name, type, space, data };
}

/** Elements of a dataspace: 1 for a scalar, 0 for a null one. */
export function elementCount(space: Dataspace | undefined): number {
  return space === undefined ? 0 : space.shape.reduce((a, b) => a * b, 1);
}

/**
 * The attribute's value as JSON: a scalar, or a one-element array (as netCDF
 * writes single values), as its one value; `undefined` for a type with no
 * JSON form.
 */
export async function attributeValue(
  attr: Attribute,
  heap: GlobalHeap,
): Promise<JsonValue | undefined> {
  const count = elementCount(attr.space);
  let values: JsonValue[] | undefined;
  if (attr.type.class === 3) {
    values = decodeStrings(attr.type.size, attr.data, count);
  } else if (attr.type.vlen?.string) {
    const items = await vlenItems(attr, heap);
    values = items.map((bytes) =>
      new TextDecoder().decode(bytes).replace(/\0+$/, "")
    );
  } else {
    values = decodeNumbers(attr.type, attr.data, count);
  }
  if (values === undefined) return undefined;
  if (attr.space === undefined) return null;
  return attr.space.shape.length === 0 || values.length === 1
    ? values[0]
    : values;
}

/** The items of a variable-length attribute, each from the global heap. */
export async function vlenItems(
  attr: Attribute,
  heap: GlobalHeap,
): Promise<Uint8Array[]> {
  const c = new Cursor(attr.data, heap.sizes, heap.file.path);
  const refs = Array.from({ length: elementCount(attr.space) }, () => {
    const length = c.u32();
    return { length, address: c.offset(), index: c.u32() };
  });
  return await Promise.all(
    refs.map(({ length, address, index }) =>
      length === 0 ? new Uint8Array(0) : heap.object(address, index)
    ),
  );
}

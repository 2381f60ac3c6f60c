/**
 * Attribute messages and their values as JSON.
 *
 * @module
 */

import { Cursor } from "./cursor.ts";
import { type Dataspace, readDataspace } from "./dataspace.ts";
import { type Datatype, readDatatype } from "./datatype.ts";
import { Hdf5FormatError } from "./errors.ts";
import type { CommittedTypes } from "./committed_types.ts";
import type { GlobalHeap } from "./global_heap.ts";
import { decodeStrings } from "./strings.ts";
import { decodeNumbers, type JsonValue } from "./values.ts";

/** An attribute as stored. */
export interface Attribute {
  name: string;
  type: Datatype;
  space: Dataspace | undefined;
  data: Uint8Array;
}

/**
 * Reads an attribute message (versions 1 to 3); a committed datatype is
 * resolved through `types`.
 */
export async function readAttribute(
  c: Cursor,
  types: CommittedTypes,
): Promise<Attribute> {
  const version = c.u8();
  if (version < 1 || version > 3) {
    throw new Hdf5FormatError(
      c.path,
      `attribute message version ${version} at address ${c.at}`,
    );
  }
  const flags = c.u8();
  const nameSize = c.u16();
  const typeSize = c.u16();
  const spaceSize = c.u16();
  if (version === 3) c.skip(1);
  const pad = (n: number) => version === 1 ? Math.ceil(n / 8) * 8 : n;
  const name = new TextDecoder().decode(
    c.take(pad(nameSize)).subarray(0, Math.max(0, nameSize - 1)),
  );
  const typeAt = c.at + c.pos;
  const typeCursor = new Cursor(c.take(pad(typeSize)), c.sizes, c.path, typeAt);
  const spaceAt = c.at + c.pos;
  const spaceCursor = new Cursor(
    c.take(pad(spaceSize)),
    c.sizes,
    c.path,
    spaceAt,
  );
  if (flags & 2) {
    return {
      name,
      type: {
        class: -1,
        size: 0,
        problem: "shared dataspaces are not supported",
      },
      space: undefined,
      data: new Uint8Array(0),
    };
  }
  const type = flags & 1
    ? await types.resolve(typeCursor)
    : readDatatype(typeCursor);
  const space = readDataspace(spaceCursor);
  const data = c.take(elementCount(space) * type.size);
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
  const values: JsonValue[] | undefined = attr.type.text
    ? await decodeStrings(attr.type, attr.data, count, heap)
    : decodeNumbers(attr.type, attr.data, count);
  if (values === undefined) return undefined;
  if (attr.space === undefined) return null;
  return attr.space.shape.length === 0 || values.length === 1
    ? values[0]
    : values;
}

/**
 * Datatype messages, and the NumPy-style dtype string (Zarr v2) each maps to.
 *
 * @module
 */

import type { Cursor } from "./cursor.ts";

/** A datatype as far as Zarr needs it. */
export interface Datatype {
  /** HDF5 class: 0 integer, 1 float, 3 string, 7 reference, 9 variable-length, … */
  class: number;
  /** Bytes per element. */
  size: number;
  /** The Zarr v2 dtype (`<f4`, `>i2`, `|S8`); absent when it has none. */
  dtype?: string;
  /** Why the type has no Zarr dtype. */
  problem?: string;
  /** Variable-length: whether it is a string, and what it holds. */
  vlen?: { string: boolean; base: Datatype };
  /** Integers: whether signed. */
  signed?: boolean;
  /** Whether values are big-endian. */
  bigEndian?: boolean;
  /** Strings (fixed-length, or variable-length in `vlen`): how they end, and their character set. */
  text?: StringForm;
  /** Enums: each member's name and value. */
  members?: Record<string, number>;
}

/** How the strings of a type are stored. */
export interface StringForm {
  /** 0: NUL-terminated, 1: NUL-padded, 2: space-padded. */
  padding: number;
  /** UTF-8 (else ASCII). */
  utf8: boolean;
}

const CLASS_NAMES = [
  "integer",
  "float",
  "time",
  "string",
  "bitfield",
  "opaque",
  "compound",
  "reference",
  "enum",
  "variable-length",
  "array",
];

/** Reads a datatype message from `c`. */
export function readDatatype(c: Cursor): Datatype {
  const classVersion = c.u8();
  const cls = classVersion & 0x0f;
  const bits = c.u8();
  const bits1 = c.u8();
  c.skip(1);
  const size = c.u32();
  const bigEndian = (bits & 1) === 1;
  const order = size === 1 ? "|" : bigEndian ? ">" : "<";
  switch (cls) {
    case 0:
    case 4: {
      c.skip(4);
      const signed = cls === 0 && (bits & 0x08) !== 0;
      if (![1, 2, 4, 8].includes(size)) {
        return unsupported(cls, size, `${size}-byte integers`);
      }
      return {
        class: cls,
        size,
        signed,
        bigEndian,
        dtype: `${order}${signed ? "i" : "u"}${size}`,
      };
    }
    case 1:
      c.skip(12);
      if (![2, 4, 8].includes(size) || (bits & 0x40) !== 0) {
        return unsupported(cls, size, `${size}-byte floats of this layout`);
      }
      return { class: cls, size, bigEndian, dtype: `${order}f${size}` };
    case 3:
      return {
        class: cls,
        size,
        dtype: `|S${size}`,
        text: { padding: bits & 0x0f, utf8: (bits >> 4) === 1 },
      };
    case 8: {
      const base = readDatatype(c);
      if (base.dtype === undefined || base.class !== 0) {
        return unsupported(cls, size, "enums of a non-integer base");
      }
      return {
        ...base,
        class: cls,
        members: enumMembers(c, base, bits | (bits1 << 8), classVersion >> 4),
      };
    }
    case 9: {
      const string = (bits & 0x0f) === 1;
      const base = readDatatype(c);
      if (!string) {
        return {
          class: cls,
          size,
          vlen: { string, base },
          problem: "variable-length sequence types are not supported",
        };
      }
      return {
        class: cls,
        size,
        dtype: "|O",
        vlen: { string, base },
        text: { padding: bits >> 4, utf8: (bits1 & 0x0f) === 1 },
      };
    }
    default:
      return unsupported(
        cls,
        size,
        `${CLASS_NAMES[cls] ?? `class ${cls}`} types`,
      );
  }
}

/** An enum's member names and values, after its base type in `c`. */
function enumMembers(
  c: Cursor,
  base: Datatype,
  count: number,
  version: number,
): Record<string, number> {
  const names = Array.from({ length: count }, () => {
    const start = c.pos;
    const name = c.cString();
    if (version < 3) c.skip((8 - ((c.pos - start) % 8)) % 8);
    return name;
  });
  return Object.fromEntries(names.map((name) => [name, integer(c, base)]));
}

/** One integer of type `base` from `c`. */
function integer(c: Cursor, base: Datatype): number {
  const bytes = c.take(base.size);
  let value = 0;
  for (let i = 0; i < base.size; i++) {
    value = value * 256 + bytes[base.bigEndian ? i : base.size - 1 - i];
  }
  const top = 2 ** (8 * base.size);
  return base.signed && value >= top / 2 ? value - top : value;
}

function unsupported(cls: number, size: number, what: string): Datatype {
  return { class: cls, size, problem: `${what} are not supported` };
}

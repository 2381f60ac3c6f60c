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
  c.skip(2);
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
      return { class: cls, size, dtype: `|S${size}` };
    case 8: {
      const base = readDatatype(c);
      return { ...base, class: cls };
    }
    case 9: {
      const string = (bits & 0x0f) === 1;
      const base = readDatatype(c);
      return {
        class: cls,
        size,
        vlen: { string, base },
        problem: string
          ? "variable-length strings have no Zarr v2 dtype here"
          : "variable-length sequences",
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

function unsupported(cls: number, size: number, what: string): Datatype {
  return { class: cls, size, problem: `${what} are not supported` };
}

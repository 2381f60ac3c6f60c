/**
 * Element values decoded to JSON as Zarr metadata writes them: numbers
 * (`"NaN"`, `"Infinity"`, `"-Infinity"` for floats that JSON lacks).
 *
 * @module
 */

import type { Datatype } from "./datatype.ts";

/** A value as it goes into Zarr JSON metadata. */
export type JsonValue = number | string | null | JsonValue[] | {
  [key: string]: JsonValue;
};

/** The `count` numbers of an integer or float type in `bytes`; `undefined` for other types. */
export function decodeNumbers(
  type: Datatype,
  bytes: Uint8Array,
  count: number,
): JsonValue[] | undefined {
  if (
    type.class !== 0 && type.class !== 1 && type.class !== 4 && type.class !== 8
  ) return undefined;
  if (type.dtype === undefined) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const little = !type.bigEndian;
  const values: JsonValue[] = [];
  for (let i = 0; i < count; i++) {
    const at = i * type.size;
    if (at + type.size > bytes.length) break;
    values.push(jsonNumber(readNumber(view, at, type, little)));
  }
  return values;
}

function readNumber(
  view: DataView,
  at: number,
  type: Datatype,
  little: boolean,
): number {
  const float = type.dtype!.includes("f");
  switch (type.size) {
    case 1:
      return type.signed ? view.getInt8(at) : view.getUint8(at);
    case 2:
      if (float) return view.getFloat16(at, little);
      return type.signed
        ? view.getInt16(at, little)
        : view.getUint16(at, little);
    case 4:
      if (float) return view.getFloat32(at, little);
      return type.signed
        ? view.getInt32(at, little)
        : view.getUint32(at, little);
    default:
      if (float) return view.getFloat64(at, little);
      return Number(
        type.signed
          ? view.getBigInt64(at, little)
          : view.getBigUint64(at, little),
      );
  }
}

/** A number as Zarr JSON holds it. */
export function jsonNumber(value: number): JsonValue {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "Infinity";
  if (value === -Infinity) return "-Infinity";
  return value;
}

/**
 * The external types of classic NetCDF (`nc_type`): their sizes, their
 * big-endian Zarr dtypes, and their values decoded to JSON.
 *
 * @module
 */

import { jsonNumber, type JsonValue } from "../hdf5/values.ts";

/** One `nc_type`. */
export interface NcType {
  /** The type's code in the header (1 = NC_BYTE … 11 = NC_UINT64). */
  code: number;
  /** Its CDL name (`short`). */
  name: string;
  /** Bytes of one value. */
  size: number;
  /** Its Zarr v2 dtype: big-endian, as stored. */
  dtype: string;
}

const TYPES: NcType[] = [
  { code: 1, name: "byte", size: 1, dtype: "|i1" },
  { code: 2, name: "char", size: 1, dtype: "|S1" },
  { code: 3, name: "short", size: 2, dtype: ">i2" },
  { code: 4, name: "int", size: 4, dtype: ">i4" },
  { code: 5, name: "float", size: 4, dtype: ">f4" },
  { code: 6, name: "double", size: 8, dtype: ">f8" },
  { code: 7, name: "ubyte", size: 1, dtype: "|u1" },
  { code: 8, name: "ushort", size: 2, dtype: ">u2" },
  { code: 9, name: "uint", size: 4, dtype: ">u4" },
  { code: 10, name: "int64", size: 8, dtype: ">i8" },
  { code: 11, name: "uint64", size: 8, dtype: ">u8" },
];

/** The type of `code`, `undefined` for a code no format defines. */
export function ncType(code: number): NcType | undefined {
  return TYPES[code - 1];
}

/** Whether values of `type` are characters. */
export function isChar(type: NcType): boolean {
  return type.code === 2;
}

/**
 * `count` values of `type` in `bytes` as attributes go into Zarr JSON:
 * text as one string (cut at its trailing NULs), one number as itself,
 * several as an array.
 */
export function jsonValues(
  type: NcType,
  bytes: Uint8Array,
  count: number,
): JsonValue {
  if (isChar(type)) {
    let end = count;
    while (end > 0 && bytes[end - 1] === 0) end--;
    return text(bytes.subarray(0, end));
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const values = Array.from(
    { length: count },
    (_, i) => jsonNumber(readValue(view, i * type.size, type.code)),
  );
  return values.length === 1 ? values[0] : values;
}

const UTF8 = new TextDecoder();

/** Names and text attributes: UTF-8, as netCDF writes them. */
export function text(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}

function readValue(view: DataView, at: number, code: number): number {
  switch (code) {
    case 1:
      return view.getInt8(at);
    case 3:
      return view.getInt16(at);
    case 4:
      return view.getInt32(at);
    case 5:
      return view.getFloat32(at);
    case 6:
      return view.getFloat64(at);
    case 7:
      return view.getUint8(at);
    case 8:
      return view.getUint16(at);
    case 9:
      return view.getUint32(at);
    case 10:
      return Number(view.getBigInt64(at));
    default:
      return Number(view.getBigUint64(at));
  }
}

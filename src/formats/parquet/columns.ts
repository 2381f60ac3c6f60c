/**
 * A column's values as one array: a typed array for a numeric column with
 * no null, and across row groups where every group's values are one of the
 * same kind.
 *
 * @module
 */

import type { DecodedArray, SchemaElement } from "hyparquet";
import type {
  ParquetColumn,
  ParquetColumns,
  ParquetPart,
} from "./parquet_parts.ts";

type Typed = Exclude<ParquetColumn, unknown[]>;
const TYPED = [
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
];

/**
 * The columns of consecutive parts (maps or records of column name to
 * values, all with the same columns in the same order), each joined.
 */
export function joinColumns(
  parts: (Map<string, DecodedArray> | ParquetPart)[],
): ParquetColumns {
  const records = parts.map((part) =>
    part instanceof Map ? Object.fromEntries(part) : part as ParquetColumns
  );
  const names = Object.keys(records[0] ?? {});
  return Object.fromEntries(
    names.map((name) => [name, join(records.map((r) => r[name]))]),
  );
}

function join(pieces: ArrayLike<unknown>[]): ParquetColumn {
  const kind = TYPED.find((type) =>
    pieces.every((piece) => piece instanceof type)
  );
  if (kind === undefined) {
    return pieces.flatMap((piece) => Array.from(piece));
  }
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const joined = new kind(length) as Typed;
  let at = 0;
  for (const piece of pieces) {
    (joined as Float64Array).set(piece as Float64Array, at);
    at += piece.length;
  }
  return joined;
}

/**
 * A top-level column's values as the typed array of its numeric type when
 * every one is a number (or bigint): `element` is the column's schema
 * element. Other values (nulls, a repeated column's lists) as they are.
 */
export function typedColumn(
  element: SchemaElement,
  values: DecodedArray,
): DecodedArray {
  const kind = numericKind(element);
  if (kind === undefined || values instanceof kind) return values;
  const all = values as ArrayLike<unknown>;
  const big = kind === BigInt64Array || kind === BigUint64Array;
  for (let i = 0; i < all.length; i++) {
    if (big ? typeof all[i] !== "bigint" : typeof all[i] !== "number") {
      return values;
    }
  }
  return (kind as typeof Float64Array).from(all as ArrayLike<number>);
}

function numericKind(element: SchemaElement) {
  if (element.num_children || element.repetition_type === "REPEATED") {
    return undefined;
  }
  const converted = element.converted_type;
  const logical = element.logical_type;
  const plain = converted === undefined && logical === undefined;
  const integer = logical?.type === "INTEGER" ? logical : undefined;
  const unsigned = converted?.startsWith("UINT_") ||
    integer?.isSigned === false;
  const anInteger = plain || converted?.startsWith("INT_") ||
    converted?.startsWith("UINT_") || integer !== undefined;
  if (element.type === "INT32" && anInteger) {
    return converted === "UINT_32" || integer?.bitWidth === 32 && unsigned
      ? Uint32Array
      : Int32Array;
  }
  if (element.type === "INT64" && anInteger) {
    return unsigned ? BigUint64Array : BigInt64Array;
  }
  if (element.type === "FLOAT" && plain) return Float32Array;
  if (element.type === "DOUBLE" && plain) return Float64Array;
  return undefined;
}

/**
 * A column's values as one array: a typed array for a numeric column with
 * no null, and across row groups where every group's values are one of the
 * same kind.
 *
 * @module
 */

import type { DecodedArray, SchemaElement } from "hyparquet";
import type { ParquetColumn, ParquetColumns } from "./parquet_decoders.ts";

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
 * The columns of consecutive parts (all with the same columns in the
 * same order), each joined.
 */
export function joinColumns(parts: ParquetColumns[]): ParquetColumns {
  const names = Object.keys(parts[0] ?? {});
  return Object.fromEntries(
    names.map((name) => [name, joinValues(parts.map((part) => part[name]))]),
  );
}

/**
 * Pieces of values as one: a typed array where every piece is one of the
 * same kind, else an array.
 */
export function joinValues(pieces: ArrayLike<unknown>[]): ParquetColumn {
  const kind = TYPED.find((type) =>
    pieces.every((piece) => piece instanceof type)
  );
  if (pieces.length === 1 && (kind || Array.isArray(pieces[0]))) {
    return pieces[0] as ParquetColumn;
  }
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
 * element. Other values (nulls, a repeated column's lists) as an array.
 */
export function typedColumn(
  element: SchemaElement,
  values: DecodedArray,
): ParquetColumn {
  const kind = numericKind(element);
  if (TYPED.some((type) => values instanceof type)) {
    if (kind === undefined || values instanceof kind) {
      return values as ParquetColumn;
    }
  }
  const all = values as ArrayLike<unknown>;
  if (kind !== undefined) {
    const big = kind === BigInt64Array || kind === BigUint64Array;
    let numbers = true;
    for (let i = 0; i < all.length && numbers; i++) {
      numbers = big ? typeof all[i] === "bigint" : typeof all[i] === "number";
    }
    if (numbers) {
      return (kind as typeof Float64Array).from(all as ArrayLike<number>);
    }
  }
  return Array.isArray(values) ? values : Array.from(all);
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

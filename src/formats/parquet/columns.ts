/**
 * A column's values as one array: a typed array for a numeric column with
 * no null, and across row groups where every group's values are one of the
 * same kind.
 *
 * @module
 */

import type { SchemaElement } from "hyparquet";
import type { ParquetColumn, ParquetColumns } from "./parquet_parts.ts";

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
 * Values `start`..`end` of a top-level column's decoded `pages` as one
 * array: the typed array of its numeric type when every one is a number
 * (or bigint), `element` being its schema element; other values (nulls, a
 * repeated column's lists) as an array. One pass, no array in between.
 */
export function columnValues(
  element: SchemaElement,
  pages: ArrayLike<unknown>[],
  start: number,
  end: number,
): ParquetColumn {
  const kind = numericKind(element);
  const typed = kind && numbers(kind, pages, start, end);
  if (typed) return typed;
  const [page] = pages;
  if (pages.length === 1 && Array.isArray(page)) {
    return start === 0 && end === page.length ? page : page.slice(start, end);
  }
  const values: unknown[] = new Array(end - start);
  let k = 0;
  eachRange(pages, start, end, (page, from, to) => {
    for (let i = from; i < to; i++) values[k++] = page[i];
  });
  return values;
}

/** `start`..`end` of `pages` in a new `kind`, or `undefined` where one is not of its kind of number. */
function numbers(
  kind: typeof TYPED[number],
  pages: ArrayLike<unknown>[],
  start: number,
  end: number,
): Typed | undefined {
  const out = new kind(end - start) as Float64Array;
  const big = kind === BigInt64Array || kind === BigUint64Array;
  let k = 0;
  let right = true;
  eachRange(pages, start, end, (page, from, to) => {
    if (!right) return;
    if (page instanceof kind) {
      out.set((page as Float64Array).subarray(from, to), k);
      k += to - from;
      return;
    }
    for (let i = from; i < to; i++) {
      const value = page[i];
      if (big ? typeof value !== "bigint" : typeof value !== "number") {
        right = false;
        return;
      }
      out[k++] = value as number;
    }
  });
  return right ? out as Typed : undefined;
}

/** `each` page's share of indices `start`..`end` of the pages end to end. */
function eachRange(
  pages: ArrayLike<unknown>[],
  start: number,
  end: number,
  each: (page: ArrayLike<unknown>, from: number, to: number) => void,
): void {
  let at = 0;
  for (const page of pages) {
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, page.length);
    if (from < to) each(page, from, to);
    at += page.length;
  }
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

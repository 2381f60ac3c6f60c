/**
 * One form for the values of a column, whichever reader gave them, so that
 * the corpus test can compare hyparquet's rows with what parquet-wasm
 * (Arrow's Rust reader) read: numbers and big integers by their decimal
 * text, strings and bytes told apart, dates as epoch milliseconds, lists and
 * structs element by element.
 *
 * @module
 */

import { createHash } from "node:crypto";

/** A value in the form both readers' values are compared in. */
export type Canonical = null | boolean | string | Canonical[] | {
  [key: string]: Canonical;
};

/** `value` in the compared form. */
export function canonical(value: unknown): Canonical {
  if (value === null || value === undefined) return null;
  if (typeof value === "boolean") return value;
  if (typeof value === "number" || typeof value === "bigint") {
    return `n:${String(value)}`;
  }
  if (typeof value === "string") return `s:${value}`;
  if (value instanceof Date) return `n:${value.getTime()}`;
  if (value instanceof Uint8Array) {
    return `b:${
      [...value].map((b) => b.toString(16).padStart(2, "0")).join("")
    }`;
  }
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
    return Object.fromEntries(entries.map(([k, v]) => [k, canonical(v)]));
  }
  return `?:${String(value)}`;
}

/** What the corpus keeps of one column: how many values, their digest, the first few. */
export interface ColumnDigest {
  count: number;
  sha256: string;
  first: Canonical[];
}

/** The digest of `values` (one column, in row order). */
export function columnDigest(values: unknown[]): ColumnDigest {
  const forms = values.map(canonical);
  return {
    count: forms.length,
    sha256: createHash("sha256").update(JSON.stringify(forms)).digest("hex"),
    first: forms.slice(0, 3),
  };
}

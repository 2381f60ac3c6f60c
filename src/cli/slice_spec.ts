/**
 * `show --slice`: a NumPy-like selection (`75,:,0:10`, `-1`, `::2`, `...`)
 * of an array of known shape, checked against it, with the indices each
 * kept axis covers.
 *
 * @module
 */

import type { ArraySelection } from "../formats/array_parts.ts";

/** One axis the selection keeps: its name and the indices it covers, in order. */
export interface KeptAxis {
  /** The dimension's name (`dim_N` when the array names none). */
  name: string;
  /** The array indices covered, in selection order. */
  indices: number[];
}

/** A checked selection, and the axes it keeps. */
export interface Slice {
  /** What `getArray` is asked for. */
  selection: NonNullable<ArraySelection>;
  /** The axes not fixed by an integer index. */
  kept: KeptAxis[];
}

/**
 * `text` (absent: everything) as a selection of an array of `shape` whose
 * axes are called `names`. A problem is one line naming the slice and the
 * axis: an index out of range, a step that is not positive, more parts than
 * axes.
 */
export function parseSlice(
  text: string | undefined,
  shape: number[],
  names: string[],
): Slice {
  const parts = text === undefined || text.trim() === ""
    ? []
    : text.split(",").map((p) => p.trim());
  const fail = (problem: string) =>
    new Error(`--slice ${JSON.stringify(text)}: ${problem}`);
  const ellipsis = parts.indexOf("...");
  if (ellipsis !== parts.lastIndexOf("...")) {
    throw fail('only one "..." is allowed');
  }
  const fill = shape.length - (parts.length - (ellipsis >= 0 ? 1 : 0));
  if (fill < 0) {
    throw fail(
      `${parts.length} parts for ${shape.length} dimensions (${
        names.join(", ") || "a scalar"
      })`,
    );
  }
  const full = ellipsis >= 0
    ? [
      ...parts.slice(0, ellipsis),
      ...Array(fill).fill(":"),
      ...parts.slice(ellipsis + 1),
    ]
    : [...parts, ...Array(fill).fill(":")];
  const selection: NonNullable<ArraySelection> = [];
  const kept: KeptAxis[] = [];
  full.forEach((part, axis) => {
    const size = shape[axis];
    const where = `dimension ${JSON.stringify(names[axis])} (size ${size})`;
    if (/^-?\d+$/.test(part)) {
      const index = Number(part) < 0 ? Number(part) + size : Number(part);
      if (!(index >= 0 && index < size)) {
        throw fail(`index ${part} is out of range for ${where}`);
      }
      selection.push(index);
      return;
    }
    const range = part.match(/^(-?\d+)?:(-?\d+)?(?::(-?\d+)?)?$/);
    if (range === null) {
      throw fail(
        `${JSON.stringify(part)} is not an index or a start:stop:step range`,
      );
    }
    const step = range[3] === undefined ? 1 : Number(range[3]);
    if (step < 1) throw fail(`step ${step} for ${where} must be >= 1`);
    const start = bound(range[1], 0, size);
    const stop = Math.max(start, bound(range[2], size, size));
    const indices = [];
    for (let i = start; i < stop; i += step) indices.push(i);
    if (indices.length === 0) throw fail(`${part} selects nothing of ${where}`);
    selection.push({ start, stop, step });
    kept.push({ name: names[axis], indices });
  });
  return { selection, kept };
}

/** A slice bound as Python reads it: negatives from the end, clamped to `0..size`. */
function bound(text: string | undefined, absent: number, size: number): number {
  if (text === undefined) return absent;
  const n = Number(text);
  return Math.min(size, Math.max(0, n < 0 ? n + size : n));
}

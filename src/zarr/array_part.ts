/**
 * Reading one part of a Zarr array: open it (v2 or v3) through
 * {@linkcode zarrStore} and decode a selection. A `RepoFsPool` worker reads
 * its shares of `getArray` calls with an {@linkcode ArrayPartReader}; the
 * calling thread uses {@linkcode readSelection} when it decodes by itself.
 *
 * @module
 */

import { boundedChunkQueue, CHUNKS_IN_FLIGHT } from "./chunk_queue.ts";
import * as zarr from "zarrita";
import { type ByteSource, zarrStore } from "./zarr_store.ts";

/**
 * A zarrita selection: per axis an index (the axis is dropped), `null` (the
 * whole axis) or a slice. Missing trailing axes are whole, as in NumPy
 * (`zarr.get` itself needs one entry per axis). `null` selects everything.
 * Plain data, so it survives `postMessage`.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import type { ArraySelection } from "./array_part.ts";
 * const firstDayEveryOtherRow: ArraySelection = [0, zarr.slice(null, null, 2), null];
 * ```
 */
export type ArraySelection =
  | (number | null | {
    start: number | null;
    stop: number | null;
    step: number | null;
  })[]
  | null;

/**
 * Decoded values: a typed array for numeric data types (`Float32Array` for
 * float32, `BigInt64Array` for int64, ...), zarrita's `BoolArray`,
 * `UnicodeStringArray` or `ByteStringArray` for booleans and fixed-length
 * strings, a plain array for variable-length strings and objects.
 *
 * @example
 * ```ts
 * import type { ArrayValues } from "./array_part.ts";
 * const values: ArrayValues = new Float32Array([1.5, 2.5]);
 * ```
 */
export type ArrayValues =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array
  | { readonly length: number };

/**
 * An array or a selection of it, decoded, as `zarr.get` returns it: values
 * in `data`, laid out by `shape` and `stride` (in elements). A point
 * selection (every axis an index) has shape `[]` and one value.
 *
 * @example
 * ```ts
 * import type { ArrayResult } from "./array_part.ts";
 * const twoByThree: ArrayResult = {
 *   data: new Float32Array([1, 2, 3, 4, 5, 6]),
 *   shape: [2, 3],
 *   stride: [3, 1],
 * };
 * ```
 */
export interface ArrayResult {
  /** The values. */
  data: ArrayValues;
  /** Length of each axis. */
  shape: number[];
  /** Elements between neighbours along each axis. */
  stride: number[];
}

/**
 * What a pool worker returns for one {@linkcode ArrayPartRequest}.
 *
 * @example
 * ```ts
 * import type { ArrayPartResult } from "./array_part.ts";
 * const rows: ArrayPartResult = { data: new Int16Array(6), shape: [2, 3], stride: [3, 1] };
 * ```
 */
export type ArrayPartResult = ArrayResult;

/**
 * One part of a `getArray` call, as a pool worker receives it.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import type { ArrayPartRequest } from "./array_part.ts";
 * const firstTenDays: ArrayPartRequest = {
 *   root: "climate.zarr",
 *   arrayPath: "temperature",
 *   selection: [zarr.slice(0, 10), null, null],
 * };
 * ```
 */
export interface ArrayPartRequest {
  /** Dataset directory holding the Zarr hierarchy (`""`: the dataset root). */
  root: string;
  /** The array's path inside the hierarchy (`""`: the root is the array). */
  arrayPath: string;
  /** What to read of it. */
  selection: ArraySelection;
}

/**
 * Reads parts of Zarr arrays from one source, opening each array (reading
 * its metadata) only once: a `RepoFsPool` worker keeps one for all the
 * parts it is given.
 *
 * @example
 * ```ts ignore
 * import { ArrayPartReader } from "./array_part.ts";
 * const reader = new ArrayPartReader(fs);
 * const part = await reader.read({
 *   root: "climate.zarr",
 *   arrayPath: "temperature",
 *   selection: null,
 * });
 * console.log(part.shape, part.data.length);
 * ```
 */
export class ArrayPartReader {
  readonly #arrays = new Map<
    string,
    Promise<zarr.Array<zarr.DataType, zarr.Readable>>
  >();

  /** @param fs where the bytes come from */
  constructor(readonly fs: ByteSource) {}

  /**
   * Decodes `request.selection` of the array `request.arrayPath` of the
   * hierarchy at `request.root` (Zarr v2 or v3).
   *
   * @param request which array and which part of it
   * @param options `signal` stops the chunk reads
   */
  async read(
    request: ArrayPartRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<ArrayPartResult> {
    const key = JSON.stringify([request.root, request.arrayPath]);
    let arr = this.#arrays.get(key);
    if (arr === undefined) {
      arr = openArray(this.fs, request.root, request.arrayPath);
      this.#arrays.set(key, arr);
      arr.catch(() => this.#arrays.delete(key));
    }
    return await readSelection(await arr, request.selection, options);
  }
}

/**
 * Opens an array (Zarr v2 or v3) of the hierarchy in dataset directory
 * `root`.
 *
 * @example
 * ```ts ignore
 * import { openArray } from "./array_part.ts";
 * const arr = await openArray(fs, "climate.zarr", "temperature");
 * console.log(arr.shape, arr.chunks, arr.dtype);
 * ```
 *
 * @param fs where the bytes come from
 * @param root dataset directory holding the hierarchy
 * @param arrayPath the array's path inside the hierarchy
 */
export async function openArray(
  fs: ByteSource,
  root: string,
  arrayPath: string,
): Promise<zarr.Array<zarr.DataType, zarr.Readable>> {
  const location = zarr.root(zarrStore(fs, root)).resolve(arrayPath);
  return await zarr.open(location, { kind: "array" });
}

/**
 * `zarr.get(arr, selection)`, except that missing trailing axes are whole,
 * and that a point selection or a zero-dimensional array gives a result of
 * shape `[]` holding the one value instead of the bare value.
 *
 * @example
 * ```ts ignore
 * import { readSelection } from "./array_part.ts";
 * const point = await readSelection(arr, [3, 4]);
 * console.log(point.shape, point.data[0]); // [] and the value at (3, 4)
 * ```
 *
 * @param arr an open array
 * @param selection what to read of it
 * @param options `signal` stops the chunk reads
 */
export async function readSelection(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
  selection: ArraySelection,
  { signal }: { signal?: AbortSignal } = {},
): Promise<ArrayPartResult> {
  if (arr.shape.length === 0) return await arr.getChunk([], { signal });
  const full = padSelection(selection, arr.shape.length);
  const asSlices = pointAsSlices(full, arr.shape);
  const options = {
    createQueue: () => boundedChunkQueue(CHUNKS_IN_FLIGHT),
    signal,
  };
  if (asSlices === undefined) return await zarr.get(arr, full, options);
  const { data } = await zarr.get(arr, asSlices, options);
  return { data, shape: [], stride: [] };
}

/**
 * The selection with `null` for each missing trailing axis.
 *
 * @example
 * ```ts
 * import { padSelection } from "./array_part.ts";
 * padSelection([3], 3); // [3, null, null]
 * padSelection(null, 3); // null
 * ```
 *
 * @param selection a selection of up to `rank` axes
 * @param rank the array's number of axes
 */
export function padSelection(
  selection: ArraySelection,
  rank: number,
): ArraySelection {
  if (selection === null || selection.length >= rank) return selection;
  return [...selection, ...Array(rank - selection.length).fill(null)];
}

/**
 * A point selection with each index turned into a one-long slice, so that
 * zarrita returns a chunk; `undefined` for any other selection, and for an
 * index out of bounds (zarrita then reports it).
 */
function pointAsSlices(
  selection: ArraySelection,
  shape: number[],
): zarr.Slice[] | undefined {
  if (selection === null || selection.length !== shape.length) return;
  const slices: zarr.Slice[] = [];
  for (const [axis, index] of selection.entries()) {
    if (typeof index !== "number") return;
    const whole = Math.trunc(index);
    const at = whole < 0 ? whole + shape[axis] : whole;
    if (!(at >= 0 && at < shape[axis])) return;
    slices.push(zarr.slice(at, at + 1));
  }
  return slices;
}

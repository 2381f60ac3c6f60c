/**
 * Reading one part of a Zarr array: open it (v2 or v3) through
 * {@linkcode zarrStore} and decode a selection. A `RepoFsPool` worker reads
 * its shares of `getArray` calls with an {@linkcode ArrayPartReader}; the
 * calling thread uses {@linkcode readSelection} when it decodes by itself.
 *
 * @module
 */

import { retriesOf } from "../base/retry_count.ts";
import { RepoChangedError } from "../base/errors.ts";
import { chunkQueue } from "./chunk_queue.ts";
import * as zarr from "zarrita";
import { chunkReadWindow } from "./read_window.ts";
import type { ByteSource } from "./zarr_store.ts";
import { emptySelection } from "./empty_selection.ts";
import { hierarchyStore } from "./hierarchy_store.ts";
import type { MetadataSeed } from "../formats/kept_metadata.ts";
import { syncZlibStore } from "./zlib_codecs.ts";

/**
 * A zarrita selection: per axis an index (the axis is dropped), `null` (the
 * whole axis) or a slice. Missing trailing axes are whole, as in NumPy
 * (`zarr.get` itself needs one entry per axis). `null` selects everything.
 * Plain data, so it survives `postMessage`.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { type ArraySelection, getArray } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ sample: true }); // temperature: 64 × 90 × 180
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const firstDayEveryOtherRow: ArraySelection = [0, zarr.slice(null, null, 2)];
 * const { shape } = await getArray(fs, "climate.zarr", "temperature", firstDayEveryOtherRow);
 * deepStrictEqual(shape, [45, 180]); // the day's axis dropped, the last one whole
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
 * import { RepoFs } from "@x/repo-fs";
 * import { type ArrayValues, getArray } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { ok, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ sample: true }); // elevation: int16, 90 × 180
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const values: ArrayValues = (await getArray(fs, "climate.zarr", "elevation", [0])).data;
 * ok(values instanceof Int16Array);
 * strictEqual(values.length, 180);
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
 * import { RepoFs } from "@x/repo-fs";
 * import { type ArrayResult, getArray } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ sample: true }); // temperature: 64 × 90 × 180
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const day: ArrayResult = await getArray(fs, "climate.zarr", "temperature", [0]);
 * deepStrictEqual(day.shape, [90, 180]);
 * deepStrictEqual(day.stride, [180, 1]);
 * strictEqual(day.data.length, 90 * 180);
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

/** What a pool worker returns for one {@linkcode ArrayPartRequest}. */
export type ArrayPartResult = ArrayResult;

/** One part of a `getArray` call, as a pool worker receives it. */
export interface ArrayPartRequest {
  /** Dataset directory holding the Zarr hierarchy (`""`: the dataset root). */
  root: string;
  /** The array's path inside the hierarchy (`""`: the root is the array). */
  arrayPath: string;
  /** What to read of it. */
  selection: ArraySelection;
  /**
   * Parts of the same read being read at the same time, across all
   * workers (default 1): this part's chunk reads keep to that share of the
   * decoded bytes a read may hold in flight.
   */
  partsAtOnce?: number;
  /**
   * The metadata bytes of file `root` that the calling thread read, so
   * that the worker parses them without reading them again.
   */
  metadata?: MetadataSeed;
}

/**
 * Reads parts of Zarr arrays from one source, opening each array (reading
 * its metadata) only once: a `RepoFsPool` worker keeps one for all the
 * parts it is given.
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
    const { root, arrayPath, metadata } = request;
    const key = JSON.stringify([root, arrayPath, metadata?.validators]);
    let arr = this.#arrays.get(key);
    if (metadata !== undefined) this.fs.metadata?.plant(metadata);
    if (arr === undefined) {
      arr = openArray(this.fs, root, arrayPath);
      this.#arrays.set(key, arr);
      arr.catch(() => this.#arrays.delete(key));
    }
    try {
      return await readSelection(await arr, request.selection, {
        ...options,
        partsAtOnce: request.partsAtOnce,
        retries: retriesOf(this.fs),
      });
    } catch (error) {
      if (error instanceof RepoChangedError) this.#arrays.delete(key);
      throw error;
    }
  }
}

/**
 * Opens an array (Zarr v2 or v3) of the hierarchy in dataset directory
 * `root`, its gzip and zlib chunks to be inflated by `node:zlib` where
 * there is one (see {@linkcode syncZlibStore}).
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
  const store = await syncZlibStore(await hierarchyStore(fs, root));
  const location = zarr.root(store).resolve(arrayPath);
  return await zarr.open(location, { kind: "array" });
}

/**
 * `zarr.get(arr, selection)`, except that missing trailing axes are whole,
 * and that a point selection or a zero-dimensional array gives a result of
 * shape `[]` holding the one value instead of the bare value.
 *
 * @param arr an open array
 * @param selection what to read of it
 * @param options `signal` stops the chunk reads; `partsAtOnce` as in
 * {@linkcode ArrayPartRequest}; `retries` the count of the source's retries
 * that narrows the read window (none when absent)
 */
export async function readSelection(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
  selection: ArraySelection,
  { signal, partsAtOnce, retries = () => 0 }: {
    signal?: AbortSignal;
    partsAtOnce?: number;
    retries?: () => number;
  } = {},
): Promise<ArrayPartResult> {
  if (arr.shape.length === 0 && !selection?.length) {
    return await arr.getChunk([], { signal });
  }
  const full = padSelection(selection, arr.shape.length);
  const empty = emptySelection(arr, full);
  if (empty !== undefined) return empty;
  const asSlices = pointAsSlices(full, arr.shape);
  const options = {
    createQueue: () =>
      chunkQueue(chunkReadWindow(chunkBytes(arr), partsAtOnce), retries),
    signal,
  };
  if (asSlices === undefined) return await zarr.get(arr, full, options);
  const { data } = await zarr.get(arr, asSlices, options);
  return { data, shape: [], stride: [] };
}

/**
 * Decoded bytes of one chunk of `arr`, counting 8 bytes an element for
 * data types other than numbers (booleans, strings, objects).
 */
export function chunkBytes(
  arr: { readonly chunks: readonly number[]; readonly dtype: string },
): number {
  const bits = /^(?:u?int|float)(\d+)$/.exec(arr.dtype)?.[1];
  const elements = arr.chunks.reduce((a, b) => a * b, 1);
  return elements * (bits === undefined ? 8 : Number(bits) / 8);
}

/**
 * The selection with `null` for each missing trailing axis.
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
 * index that is not a whole number or is out of bounds (zarrita then
 * reports it).
 */
function pointAsSlices(
  selection: ArraySelection,
  shape: number[],
): zarr.Slice[] | undefined {
  if (selection === null || selection.length !== shape.length) return;
  const slices: zarr.Slice[] = [];
  for (const [axis, index] of selection.entries()) {
    if (typeof index !== "number" || !Number.isInteger(index)) return;
    const at = index < 0 ? index + shape[axis] : index;
    if (!(at >= 0 && at < shape[axis])) return;
    slices.push(zarr.slice(at, at + 1));
  }
  return slices;
}

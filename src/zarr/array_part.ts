/**
 * Reading one part of a Zarr array: open it (v2 or v3) through
 * {@linkcode zarrStore} and decode a selection. A `RepoFsPool` worker reads
 * its shares of `getArray` calls with an {@linkcode ArrayPartReader}; the
 * calling thread uses {@linkcode readSelection} when it decodes by itself.
 *
 * @module
 */

import { RepoChangedError } from "../base/errors.ts";
import { chunkQueue } from "./chunk_queue.ts";
import * as zarr from "zarrita";
import { chunkReadWindow } from "./read_window.ts";
import type { ByteSource } from "../formats/source.ts";
import type {
  ArrayPartRequest,
  ArrayPartResult,
  ArraySelection,
} from "../formats/array_parts.ts";
import { emptySelection } from "./empty_selection.ts";
import { hierarchyStore } from "./hierarchy_store.ts";
import { syncZlibStore } from "./zlib_codecs.ts";

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
    // A pool sends a seed's bytes with a worker's first part of a read only.
    if (metadata?.ranges.length) this.fs.metadata?.plant(metadata);
    if (arr === undefined) {
      arr = openArray(this.fs, root, arrayPath);
      this.#arrays.set(key, arr);
      arr.catch(() => this.#arrays.delete(key));
    }
    try {
      return await readSelection(await arr, request.selection, {
        ...options,
        partsAtOnce: request.partsAtOnce,
        pacedBy: this.fs,
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
 * {@linkcode ArrayPartRequest}; `pacedBy` the source whose retries narrow
 * the read window (none when absent)
 */
export async function readSelection(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
  selection: ArraySelection,
  { signal, partsAtOnce, pacedBy = {} }: {
    signal?: AbortSignal;
    partsAtOnce?: number;
    pacedBy?: Pick<ByteSource, "retries">;
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
      chunkQueue(
        chunkReadWindow(chunkBytes(arr), partsAtOnce),
        () => pacedBy.retries?.() ?? 0,
      ),
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

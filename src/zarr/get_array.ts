/**
 * `getArray`: read a Zarr array, or a selection of it. Given a `RepoFsPool`,
 * the selection is cut along its first axis at chunk boundaries and every
 * worker fetches and decodes its shares; they are joined here as they arrive.
 *
 * @module
 */

import type * as zarr from "zarrita";
import type {
  ArrayPartRequest,
  ArrayPartResult,
  ArrayResult,
  ArraySelection,
} from "../formats/array_parts.ts";
import type { ByteSource, WorkerDecoders } from "../formats/source.ts";
import {
  chunkBytes,
  openArray,
  padSelection,
  readSelection,
} from "./array_part.ts";
import { hierarchySeed } from "./hierarchy_store.ts";
import { RepoChangedError } from "../base/errors.ts";
import { Semaphore } from "../base/semaphore.ts";
import { sliceIndices } from "./slice_indices.ts";
import { withZarritaClass } from "./zarrita_errors.ts";

/**
 * Reads array `arrayPath` of the Zarr hierarchy (v2 or v3) in dataset
 * directory `root`, or `selection` of it, as `zarr.get` would. With a
 * `RepoFs` it decodes on the calling thread. With a `RepoFsPool` the
 * selection is split along its first axis at chunk boundaries into up to
 * four parts per worker (one part with one worker), each of at least
 * {@linkcode MIN_PART_CHUNKS} chunks or {@linkcode MIN_PART_BYTES} decoded
 * bytes; each worker reads and decodes two parts at a time, and every part
 * is copied into one C-order result as it arrives.
 * Arrays of booleans and strings are decoded on the calling thread (a Zarr
 * directory's chunks still come through the pool). A NetCDF or HDF5 file's
 * metadata is read once per instance (a pool's too: its workers are given
 * it). A point selection gives shape `[]` and one value.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { getArray } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // Two years of a 2 × 3 grid in chunks of 30 days,
 * // valued 0, 1, 2, … in C order.
 * const files: Record<string, string | Uint8Array> = {
 *   "climate.zarr/.zgroup": '{"zarr_format":2}',
 *   "climate.zarr/temperature/.zarray": JSON.stringify({
 *     zarr_format: 2, shape: [730, 2, 3], chunks: [30, 2, 3], dtype: "<f4",
 *     compressor: null, filters: null, fill_value: 0, order: "C",
 *   }),
 * };
 * for (let c = 0; c * 30 < 730; c++) {
 *   const chunk = Float32Array.from({ length: 30 * 6 }, (_, i) => c * 180 + i);
 *   files[`climate.zarr/temperature/${c}.0.0`] = new Uint8Array(chunk.buffer);
 * }
 * await using emu = await startEmulator({ files });
 * const values = Float32Array.from({ length: 730 * 6 }, (_, i) => i);
 *
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * await using pool = new RepoFsPool(fs, { workers: 4 });
 * const { data, shape } = await getArray(pool, "climate.zarr", "temperature", [
 *   zarr.slice(0, 365),
 *   null,
 *   null,
 * ]);
 * deepStrictEqual(shape, [365, 2, 3]);
 * deepStrictEqual(data, values.subarray(0, 365 * 2 * 3));
 *
 * // A point, read on the calling thread.
 * const point = await getArray(fs, "climate.zarr", "temperature", [1, 0, 2]);
 * deepStrictEqual(point.shape, []);
 * deepStrictEqual(point.data, new Float32Array([8]));
 * ```
 *
 * @param source a `RepoFs`, or a `RepoFsPool` to decode in its workers
 * @param root dataset directory holding the hierarchy (`""`: the dataset root),
 * or the path of a NetCDF file (classic or NetCDF4) or an HDF5 file, read as
 * by `netcdfStore`
 * @param arrayPath the array's path inside the hierarchy
 * @param selection what to read; everything when absent
 * @param options `signal` cancels the read: chunk reads in flight are
 * aborted, in the workers too, and none start after it
 */
export async function getArray(
  source: ByteSource,
  root: string,
  arrayPath: string,
  selection: ArraySelection = null,
  options: { signal?: AbortSignal } = {},
): Promise<ArrayResult> {
  source.decoders?.prepare?.("array");
  const arr = await openArray(source, root, arrayPath);
  const decoders = source.decoders;
  if (decoders === undefined || !decodesToTypedArray(arr)) {
    return await readSelection(arr, selection, { ...options, pacedBy: source });
  }
  const full = padSelection(selection, arr.shape.length);
  const parts = splitSelection(
    full,
    arr.shape,
    arr.chunks,
    partCount(full, arr, mostParts(decoders.workers)),
  );
  const partsAtOnce = Math.min(
    parts.length,
    decoders.workers * PARTS_AT_ONCE_PER_WORKER,
  );
  const metadata = await hierarchySeed(source, root, arrayPath, options.signal);
  const requests = parts.map((part) => ({
    root,
    arrayPath,
    selection: part,
    partsAtOnce,
    metadata,
  }));
  try {
    if (requests.length === 1) {
      const [whole] = await readParts(decoders, requests, options.signal);
      // A pool hands over a part its worker finished before the abort reached it.
      options.signal?.throwIfAborted();
      return whole;
    }
    const rows = parts.map((part) => rowsOf(part, arr.shape[0]));
    return await readJoined(
      decoders,
      requests,
      rows,
      partsAtOnce,
      options.signal,
    );
  } catch (error) {
    // A worker found the file changed: the next call parses it afresh.
    if (metadata && error instanceof RepoChangedError) {
      await source.metadata?.drop(metadata.path, metadata.kind);
    }
    throw error;
  }
}

/**
 * Parts per worker a pool's selection is cut into. A worker that finishes
 * early takes the next part, and each part is copied into the result while
 * later ones are still being read, so the copy is not left to the end and
 * only a few parts are held besides the result.
 */
const PARTS_PER_WORKER = 4;

/**
 * The most parts a pool of `workers` cuts a selection into. One worker
 * reads it as one part: parts are joined by copying each into a result
 * allocated anew, which pays only where parts are decoded on several
 * workers at once (with four parts a pool of 1 took 1.12–1.25× `RepoFs`
 * alone over 2,000 chunks of 64 KiB; as one part, 0.98–1.01×).
 */
function mostParts(workers: number): number {
  return workers === 1 ? 1 : workers * PARTS_PER_WORKER;
}

/**
 * Fewest chunks in a part of a pool's read, unless its chunks decode to
 * {@linkcode MIN_PART_BYTES}: a part costs messages, a job and a zarrita
 * `get` in a worker, which small parts would spend more time on than on
 * their chunks.
 */
export const MIN_PART_CHUNKS = 64;

/** Decoded bytes from which a part is big enough whatever its chunk count. */
export const MIN_PART_BYTES = 4 * 2 ** 20;

/**
 * How many parts `splitSelection` should cut `selection` of `arr` into: at
 * most `most`, and few enough that each holds at least
 * {@linkcode MIN_PART_CHUNKS} chunks or {@linkcode MIN_PART_BYTES} decoded
 * bytes (at least 1).
 *
 * @param selection the whole selection, padded to the array's rank
 * @param arr the array's shape, chunk shape and data type
 * @param most the most parts wanted
 */
export function partCount(
  selection: ArraySelection,
  arr: {
    readonly shape: readonly number[];
    readonly chunks: readonly number[];
    readonly dtype: string;
  },
  most: number,
): number {
  const touched = arr.shape.map((size, axis) => {
    const index = selection?.[axis] ?? null;
    if (typeof index === "number") return 1;
    const indices = sliceIndices(index, size);
    if (indices === undefined) return 1;
    const { start, step, length } = indices;
    return firstItemOfEachChunk(start, step, length, arr.chunks[axis]).length;
  });
  const [rows = 1, ...rest] = touched;
  const perRow = product(rest);
  const rowBytes = perRow * chunkBytes(arr);
  const rowsPerPart = Math.min(
    Math.ceil(MIN_PART_CHUNKS / Math.max(1, perRow)),
    Math.ceil(MIN_PART_BYTES / Math.max(1, rowBytes)),
  );
  return Math.max(1, Math.min(most, Math.floor(rows / rowsPerPart)));
}

/**
 * Parts each worker reads at once: while one drains its last chunk reads,
 * the other keeps the worker busy.
 */
const PARTS_AT_ONCE_PER_WORKER = 2;

/** Whether decoded values are a typed array, which moves between threads. */
function decodesToTypedArray(arr: zarr.Array<zarr.DataType, zarr.Readable>) {
  return arr.is("number") || arr.is("bigint");
}

/**
 * Cuts `selection` along its first axis into at most `count` selections
 * whose boundaries fall on chunk boundaries, so that no chunk is read for
 * two parts; read in order and joined, they give `selection`. An index on
 * the first axis, a zero-dimensional array, a selection of fewer than two
 * chunks along it, or a slice zarrita rejects gives `[selection]`.
 *
 * @param selection the whole selection
 * @param shape the array's shape
 * @param chunks the array's chunk shape
 * @param count the most parts wanted
 */
export function splitSelection(
  selection: ArraySelection,
  shape: readonly number[],
  chunks: readonly number[],
  count: number,
): ArraySelection[] {
  const first = selection?.[0] ?? null;
  if (shape.length === 0 || typeof first === "number") return [selection];
  const indices = sliceIndices(first, shape[0]);
  if (indices === undefined) return [selection];
  const { start, step, length } = indices;
  const chunkStarts = firstItemOfEachChunk(start, step, length, chunks[0]);
  const parts = Math.min(count, chunkStarts.length);
  if (parts < 2) return [selection];
  const rest = selection?.slice(1) ?? [];
  const boundary = (part: number) =>
    part === parts
      ? length
      : chunkStarts[Math.floor(part * chunkStarts.length / parts)];
  return Array.from({ length: parts }, (_, part) => {
    const from = boundary(part);
    const to = boundary(part + 1);
    const slice = {
      start: start + from * step,
      stop: start + (to - 1) * step + 1,
      step,
    };
    return [slice, ...rest];
  });
}

/** For each chunk the items `start + k * step` touch, the first such `k`. */
function firstItemOfEachChunk(
  start: number,
  step: number,
  length: number,
  chunk: number,
): number[] {
  if (length === 0) return [];
  const firsts: number[] = [];
  const last = start + (length - 1) * step;
  for (let c = Math.floor(start / chunk); c <= Math.floor(last / chunk); c++) {
    const k = Math.max(0, Math.ceil((c * chunk - start) / step));
    if (k < length && start + k * step < (c + 1) * chunk) firsts.push(k);
  }
  return firsts;
}

/** The number of first-axis items a part made by `splitSelection` selects. */
function rowsOf(part: ArraySelection, size: number): number {
  const first = part![0] as Exclude<NonNullable<ArraySelection>[0], number>;
  return sliceIndices(first, size)!.length;
}

/**
 * Reads `requests`, parts that follow each other along the first axis with
 * `rows[i]` rows each, `partsAtOnce` at a time, and copies each
 * into one C-order result as it arrives. The first failure (or `signal`)
 * cancels the parts still being read and starts no more; the promise
 * settles once none is left running.
 */
async function readJoined(
  decoders: WorkerDecoders,
  requests: ArrayPartRequest[],
  rows: number[],
  partsAtOnce: number,
  callerSignal?: AbortSignal,
): Promise<ArrayPartResult> {
  const failed = new AbortController();
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, failed.signal])
    : failed.signal;
  const rowsBefore = rows.map((_, i) => sum(rows.slice(0, i)));
  let result: { data: NumericTypedArray; shape: number[] } | undefined;
  const place = (i: number, part: ArrayPartResult) => {
    const inner = part.shape.slice(1);
    result ??= {
      data: new (part.data.constructor as TypedArrayClass)(
        sum(rows) * product(inner),
      ),
      shape: [sum(rows), ...inner],
    };
    if (
      part.shape[0] !== rows[i] || inner.join() !== result.shape.slice(1).join()
    ) {
      throw new Error(
        `Part ${i} of the array has shape [${part.shape}], expected ${
          rows[i]
        } rows of [${result.shape.slice(1)}]`,
      );
    }
    const values = part.data as NumericTypedArray;
    const offset = rowsBefore[i] * product(inner);
    if (isCContiguous(part)) result.data.set(values, offset);
    else copyStrided(values, part.shape, part.stride, result.data, offset);
  };
  const reading = new Semaphore(partsAtOnce);
  await Promise.all(
    requests.map((request, i) =>
      // Copied once its place is given up, after the next part was sent.
      reading.run(() =>
        readParts(decoders, [request], signal).catch((error) => {
          failed.abort(error); // before its place is given up: no part starts after it
          throw error;
        })
      ).then(({ value: [part] }) => place(i, part))
        .catch((error) => failed.abort(error))
    ),
  );
  signal.throwIfAborted();
  return {
    data: result!.data as ArrayPartResult["data"],
    shape: result!.shape,
    stride: cStrides(result!.shape),
  };
}

/** `decoders.readArrayParts`, zarrita's errors from the workers with their classes. */
async function readParts(
  decoders: WorkerDecoders,
  requests: ArrayPartRequest[],
  signal?: AbortSignal,
): Promise<ArrayPartResult[]> {
  try {
    return await decoders.readArrayParts(requests, { signal });
  } catch (error) {
    throw withZarritaClass(error);
  }
}

/** A typed array of numbers or bigints, as far as joining needs it. */
interface NumericTypedArray {
  readonly length: number;
  [index: number]: number | bigint;
  set(values: ArrayLike<number | bigint>, offset: number): void;
}

type TypedArrayClass = new (length: number) => NumericTypedArray;

function product(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function cStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    stride[axis] = step;
    step *= shape[axis];
  }
  return stride;
}

function isCContiguous(part: ArrayPartResult): boolean {
  const expected = cStrides(part.shape);
  return part.shape.every((size, axis) =>
    size <= 1 || part.stride[axis] === expected[axis]
  );
}

/** Copies a strided array into `target` from `offset` on, in C order. */
function copyStrided(
  source: NumericTypedArray,
  shape: readonly number[],
  stride: readonly number[],
  target: NumericTypedArray,
  offset: number,
): void {
  const count = product(shape);
  const index = new Array<number>(shape.length).fill(0);
  let from = 0;
  for (let i = 0; i < count; i++) {
    target[offset + i] = source[from];
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      index[axis]++;
      from += stride[axis];
      if (index[axis] < shape[axis]) break;
      from -= stride[axis] * shape[axis];
      index[axis] = 0;
    }
  }
}

/**
 * The plain data of an array read: the selection `getArray` is asked, the
 * values it gives back, and one part of a read as a pool's worker is asked
 * it. Plain data, so it crosses to a worker with `postMessage`.
 *
 * @module
 */

import type { MetadataSeed } from "../content/file_metadata.ts";

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

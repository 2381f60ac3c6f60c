/**
 * What every reader reads from, the Zarr store and `getArray` too: a
 * `RepoFs`, a `RepoFsPool`, a tree made by a reader (a `zipTree`), so that
 * readers chain, or a source of the user's own. The optional members are
 * what a source has beyond bytes: kept metadata, workers, a retry count.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import type { FileMetadata } from "../content/file_metadata.ts";
import type { ArrayPartRequest, ArrayPartResult } from "./array_parts.ts";
import type {
  ParquetPart,
  ParquetPartRequest,
} from "./parquet/parquet_parts.ts";
import type { Raster, RasterPartRequest } from "./geotiff/raster_parts.ts";

/**
 * Anything with `info(path)` and ranged `catFile`: a `RepoFs`, a
 * `RepoFsPool`, or a `zipTree`. The Zarr store asks `exists` first, where
 * there is one.
 *
 * @example
 * ```ts
 * import { type ByteSource, head } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * // A source of your own: one file held in memory.
 * const bytes = new TextEncoder().encode("station,t\nA,1.5\nB,2.25\n");
 * const inMemory: ByteSource = {
 *   info: (name) => Promise.resolve({ name, type: "file", size: bytes.byteLength }),
 *   catFile: (_path, { start = 0, end = bytes.byteLength } = {}) =>
 *     Promise.resolve(bytes.slice(start, end)),
 * };
 * deepStrictEqual(await head(inMemory, "obs.csv", 2), ["station,t", "A,1.5"]);
 * ```
 *
 * @example
 * The Zarr store asks `exists` of a source of your own before it reads.
 *
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type ByteSource, zarrStore } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}' },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * // A source of your own: the dataset, its reads counted.
 * let reads = 0;
 * const counted: ByteSource = {
 *   catFile: (path, options) => (reads++, fs.catFile(path, options)),
 *   info: (path) => fs.info(path),
 *   exists: (path) => fs.exists(path),
 * };
 * const store = zarrStore(counted, "climate.zarr");
 * strictEqual(new TextDecoder().decode(await store.get("/.zgroup")), '{"zarr_format":2}');
 * strictEqual(await store.get("/.zattrs"), undefined); // missing: not read
 * strictEqual(reads, 1);
 * ```
 */
export interface ByteSource {
  /** The entry of a path: its `type` and `size`. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of a file, or of `start`..`end` (end exclusive, negatives from the end). */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
  /**
   * Whether the path is in the source, answered without reading it. The
   * Zarr store asks it before reading a key; absent, a key whose `info`
   * rejects with a `NotFoundError` is missing.
   */
  exists?(path: string): Promise<boolean>;
  /**
   * Where format readers keep the parsed metadata of its files, so that a
   * second read of a file parses nothing again; absent: parsed on each read.
   */
  readonly metadata?: FileMetadata;
  /**
   * Workers of the source's own (a `RepoFsPool`'s) that read and decode
   * the parts of an array, Parquet or GeoTIFF read; absent: decoded on the
   * calling thread. Internal to repo-fs.
   *
   * @ignore
   */
  readonly decoders?: WorkerDecoders;
  /**
   * How many requests the source has backed off and retried so far (a
   * `RepoFs`'s): a rise narrows the chunk read window of `getArray`, so
   * that one instance's rate limits slow only its own reads. Absent: none.
   * Internal to repo-fs.
   *
   * @ignore
   */
  retries?(): number;
}

/** The kinds of part a {@linkcode WorkerDecoders} reads. */
export type PartKind = "array" | "parquet" | "raster";

/**
 * Reads and decodes parts of reads off the calling thread, one part per
 * worker at a time: `RepoFsPool.decoders`. Each read's signal stops it in
 * the worker too.
 */
export interface WorkerDecoders {
  /** How many parts can be decoded at once, one per worker. */
  readonly workers: number;
  /**
   * Says that parts of `kind` are coming: the workers load the code that
   * reads them (and a pool its dataset's listing) while the calling thread
   * reads the file's metadata. Absent: nothing is made ready ahead.
   */
  prepare?(kind: PartKind): void;
  /** Each part of a `getArray` read and decoded by one worker; results in request order. */
  readArrayParts(
    requests: ArrayPartRequest[],
    options?: { signal?: AbortSignal },
  ): Promise<ArrayPartResult[]>;
  /** The columns of one part of a Parquet read, read and decoded by one worker. */
  readParquet(
    request: ParquetPartRequest,
    options?: { signal?: AbortSignal },
  ): Promise<ParquetPart>;
  /** The values of one window of a `readRaster` read, read and decoded by one worker. */
  readRaster(
    request: RasterPartRequest,
    options?: { signal?: AbortSignal },
  ): Promise<Raster>;
}

/**
 * `readRaster()`: the decoded values of a window of a GeoTIFF image, in a
 * pool's workers when given a pool.
 *
 * @module
 */

import type { GeoTIFFImage } from "geotiff";
import type { ByteSource, WorkerDecoders } from "../source.ts";
import type { Raster, RasterArray, RasterPartRequest } from "./raster_parts.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import { openRange } from "./open_geotiff.ts";
import { RangeSource } from "./range_source.ts";
import {
  checkedSamples,
  checkedWindow,
  imageOf,
  readImageWindow,
} from "./read_window.ts";

/**
 * What {@linkcode readRaster} reads.
 *
 * @example
 * ```ts
 * import type { ReadRasterOptions } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * // The first band of the first overview, its top-left 64x32 pixels.
 * const options: ReadRasterOptions = { image: 1, window: [0, 0, 64, 32], samples: [0] };
 * strictEqual(options.window![2] - options.window![0], 64);
 * ```
 */
export interface ReadRasterOptions {
  /** The image: 0 (default) is the full resolution, then the overviews. */
  image?: number;
  /** `[left, top, right, bottom]` in the image's pixels (right and bottom exclusive); default the whole image. */
  window?: [number, number, number, number];
  /** The samples (bands) to read, 0-based; default all. */
  samples?: number[];
  /** Aborts the read, in the workers too. */
  signal?: AbortSignal;
}

/**
 * The decoded values of `window` of image `image` of GeoTIFF `path`: one
 * typed array per sample, row after row (`width * height` values each).
 * It reads the file's first 64 KiB (a COG's header and directories), then
 * only the tiles or strips the window overlaps, by ranged requests (one for
 * each run of them lying side by side in the file).
 * With a `RepoFsPool` the window is split into bands of tile rows and each
 * worker fetches and decodes its own; the values come back the same either
 * way. A bad image, window or sample, or a file that is not a readable
 * TIFF, fails with `GeotiffFormatError`.
 *
 * @example
 * ```ts
 * import { RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { readRaster } from "@x/repo-fs/geotiff";
 * import { writeArrayBuffer } from "geotiff";
 * import { deepStrictEqual } from "node:assert/strict";
 * // A 4x3 single-band TIFF, written here by geotiff.js itself.
 * const tif = new Uint8Array(writeArrayBuffer(
 *   [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
 *   { width: 4, height: 3 },
 * ));
 * await using emu = await startEmulator({ files: { "small.tif": tif } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const { width, height, data } = await readRaster(fs, "small.tif", {
 *   window: [1, 1, 3, 3],
 * });
 * deepStrictEqual([width, height, [...data[0]]], [2, 2, [6, 7, 10, 11]]);
 * // Decoded in a pool's workers.
 * await using pool = new RepoFsPool(fs, { workers: 2 });
 * const whole = await readRaster(pool, "small.tif");
 * deepStrictEqual([...whole.data[0]], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` (decodes in its workers) or a `zipTree`
 * @param path the file's path in `source`
 * @param options the image, window and samples to read, and a signal
 */
export async function readRaster(
  source: ByteSource,
  path: string,
  options: ReadRasterOptions = {},
): Promise<Raster> {
  const { signal } = options;
  source.decoders?.prepare?.("raster");
  const { size, type } = await source.info(path);
  if (type !== "file") throw new GeotiffFormatError(path, "it is a directory");
  const range = new RangeSource(source, path, size, undefined, signal);
  const tiff = await openRange(range, path);
  const index = options.image ?? 0;
  const image = await imageOf(tiff, index, path);
  const window = checkedWindow(image, index, options.window, path);
  const samples = checkedSamples(image, options.samples, path);
  const decoders = source.decoders;
  if (decoders === undefined) {
    return await readImageWindow(image, window, samples, path, signal);
  }
  const first = await range.firstBytes(signal);
  const parts = await readAll(
    decoders,
    bands(image, window, decoders.workers).map((band) => ({
      path,
      size,
      first,
      image: index,
      window: band,
      samples,
    })),
    signal,
  );
  return joined(parts, window);
}

/** `window` cut at tile-row boundaries into at most `count` bands of about equal height. */
function bands(
  image: GeoTIFFImage,
  window: [number, number, number, number],
  count: number,
): [number, number, number, number][] {
  const [left, top, right, bottom] = window;
  const tile = image.getTileHeight();
  const rows = Math.ceil(bottom / tile) - Math.floor(top / tile);
  const perBand = Math.ceil(rows / Math.min(count, rows));
  const cuts: [number, number, number, number][] = [];
  let start = top;
  while (start < bottom) {
    const end = Math.min(
      bottom,
      (Math.floor(start / tile) + perBand) * tile,
    );
    cuts.push([left, start, right, end]);
    start = end;
  }
  return cuts;
}

/** Every part through `decoders`; the first failure cancels the others. */
async function readAll(
  decoders: WorkerDecoders,
  parts: RasterPartRequest[],
  callerSignal?: AbortSignal,
): Promise<Raster[]> {
  const failed = new AbortController();
  const signal = callerSignal
    ? AbortSignal.any([callerSignal, failed.signal])
    : failed.signal;
  const reads = parts.map((part) =>
    decoders.readRaster(part, { signal }).catch((error) => {
      failed.abort(error);
      throw error;
    })
  );
  await Promise.allSettled(reads);
  signal.throwIfAborted();
  return await Promise.all(reads);
}

/** Bands of rows, top to bottom, as one raster of `window`. */
function joined(
  parts: Raster[],
  window: [number, number, number, number],
): Raster {
  const width = window[2] - window[0];
  const height = window[3] - window[1];
  if (parts.length === 1) return parts[0];
  const data = parts[0].data.map((first, sample) => {
    const Type = first.constructor as new (length: number) => RasterArray;
    const all = new Type(width * height);
    let offset = 0;
    for (const part of parts) {
      const values = part.data[sample];
      (all as Float64Array).set(values as unknown as Float64Array, offset);
      offset += values.length;
    }
    return all;
  });
  return { width, height, data };
}

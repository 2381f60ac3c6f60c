/**
 * What a pool's worker is asked for one window of a GeoTIFF read and what
 * it answers: the window's decoded values.
 *
 * @module
 */

/** One window of one image of file `path`, whose first bytes the main thread has read. */
export interface RasterPartRequest {
  /** The file's path in the source. */
  path: string;
  /** The file's size, when listed. */
  size: number | null;
  /** The file's first bytes (its header and directories), so that a worker does not read them again. */
  first: Uint8Array;
  /** The image: 0 is full resolution, then the overviews. */
  image: number;
  /** `[left, top, right, bottom]` in the image's pixels. */
  window: [number, number, number, number];
  /** The samples (bands) to read, 0-based. */
  samples: number[];
}

/**
 * Values of a window: one typed array per sample, row after row.
 *
 * @example
 * ```ts
 * import type { Raster } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * const raster: Raster = { width: 2, height: 1, data: [Int16Array.of(-5, 7)] };
 * // Pixel (x, y) of band b is data[b][y * width + x].
 * strictEqual(raster.data[0][0 * raster.width + 1], 7);
 * ```
 */
export interface Raster {
  /** The window's width in pixels. */
  width: number;
  /** The window's height in pixels. */
  height: number;
  /** One typed array per sample asked for. */
  data: RasterArray[];
}

/**
 * The typed arrays geotiff.js decodes samples into, by the file's sample
 * format and bits.
 *
 * @example
 * ```ts
 * import type { RasterArray } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * const band: RasterArray = new Float32Array([0.5, 1.5]);
 * strictEqual(band.length, 2);
 * ```
 */
export type RasterArray =
  | Uint8Array
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array;

/**
 * `rasterSizes()`: the size of every image `readRaster` can read.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import { openRange } from "./open_geotiff.ts";
import { RangeSource } from "./range_source.ts";
import { rasterImages } from "./read_window.ts";

/**
 * One image of a GeoTIFF: its size in pixels and its samples (bands).
 *
 * @example
 * ```ts
 * import type { RasterSize } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * const overview: RasterSize = { width: 256, height: 128, samples: 3 };
 * strictEqual(overview.width * overview.height, 32768);
 * ```
 */
export interface RasterSize {
  /** Its width in pixels. */
  width: number;
  /** Its height in pixels. */
  height: number;
  /** Its samples (bands) per pixel. */
  samples: number;
}

/**
 * The images of GeoTIFF `path` that `readRaster` reads by index: 0 the full
 * resolution, then the overviews (GDAL's masks left out), each with its
 * size, from the file's header alone.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { rasterSizes, readRaster } from "@x/repo-fs/geotiff";
 * import { deepStrictEqual } from "node:assert/strict";
 * // A 2 × 1 pixel 8-bit TIFF, one strip, no compression.
 * const tiff = new Uint8Array([
 *   0x49, 0x49, 42, 0, 8, 0, 0, 0, 8, 0,
 *   0, 1, 3, 0, 1, 0, 0, 0, 2, 0, 0, 0, // width 2
 *   1, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, // height 1
 *   2, 1, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, // 8 bits
 *   3, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, // no compression
 *   6, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, // black is zero
 *   17, 1, 4, 0, 1, 0, 0, 0, 110, 0, 0, 0, // strip at 110
 *   22, 1, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0, // one row per strip
 *   23, 1, 4, 0, 1, 0, 0, 0, 2, 0, 0, 0, // 2 bytes in the strip
 *   0, 0, 0, 0,
 *   7, 9,
 * ]);
 * await using emu = await startEmulator({ files: { "a.tif": tiff } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await rasterSizes(fs, "a.tif"), [{ width: 2, height: 1, samples: 1 }]);
 * const { data } = await readRaster(fs, "a.tif", { image: 0 });
 * deepStrictEqual([...data[0]], [7, 9]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param options `signal` aborts the reads
 */
export async function rasterSizes(
  source: ByteSource,
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<RasterSize[]> {
  const { size, type } = await source.info(path);
  if (type !== "file") throw new GeotiffFormatError(path, "it is a directory");
  const range = new RangeSource(source, path, size, undefined, options.signal);
  const tiff = await openRange(range, path);
  return (await rasterImages(tiff, path)).map((image) => ({
    width: image.getWidth(),
    height: image.getHeight(),
    samples: image.getSamplesPerPixel(),
  }));
}

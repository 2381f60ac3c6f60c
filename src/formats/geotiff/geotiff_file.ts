/**
 * The parts of geotiff.js's `GeoTIFF` and `GeoTIFFImage` that `geotiff()`
 * promises; the objects are geotiff.js's own, with all their methods.
 *
 * @module
 */

import type { RasterArray } from "./raster_parts.ts";

/**
 * One image of a GeoTIFF (the full resolution or an overview): geotiff.js's
 * `GeoTIFFImage`.
 *
 * @example
 * ```ts
 * import type { GeotiffImage } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * const pixels = (image: GeotiffImage) => image.getWidth() * image.getHeight();
 * strictEqual(typeof pixels, "function");
 * ```
 */
export interface GeotiffImage {
  /** Width in pixels. */
  getWidth(): number;
  /** Height in pixels. */
  getHeight(): number;
  /** Samples (bands) per pixel. */
  getSamplesPerPixel(): number;
  /** Tile width in pixels (the image width for a stripped image). */
  getTileWidth(): number;
  /** Tile height in pixels (the rows per strip for a stripped image). */
  getTileHeight(): number;
  /** Bits of sample `index`. */
  getBitsPerSample(index?: number): number;
  /** TIFF SampleFormat of sample `index`: 1 unsigned, 2 signed, 3 floating point. */
  getSampleFormat(index?: number): number;
  /** The GeoKeys (`ProjectedCSTypeGeoKey`, `GeographicTypeGeoKey`, ...), or `null`. */
  getGeoKeys(): Record<string, unknown> | null;
  /** The no-data value GDAL wrote, or `null`. */
  getGDALNoData(): number | null;
  /** The model coordinates of the top-left corner. */
  getOrigin(): number[];
  /** The size of a pixel in model units. */
  getResolution(): number[];
  /** `[minX, minY, maxX, maxY]` in model units. */
  getBoundingBox(): number[];
  /** Decoded samples of a window, one typed array per sample. */
  readRasters(options?: {
    window?: number[];
    samples?: number[];
    signal?: AbortSignal;
  }): Promise<RasterArray[]>;
}

/**
 * A GeoTIFF file: geotiff.js's `GeoTIFF`.
 *
 * @example
 * ```ts
 * import type { GeotiffFile } from "@x/repo-fs/geotiff";
 * import { strictEqual } from "node:assert/strict";
 * const overviews = async (tiff: GeotiffFile) => (await tiff.getImageCount()) - 1;
 * strictEqual(typeof overviews, "function");
 * ```
 */
export interface GeotiffFile {
  /** Image `index`: 0 (default) is the full resolution, then the overviews. */
  getImage(index?: number): Promise<GeotiffImage>;
  /** How many images the file holds. */
  getImageCount(): Promise<number>;
}

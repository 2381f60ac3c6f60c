/**
 * GeoTIFFs and Cloud-Optimized GeoTIFFs of a dataset read by range with
 * geotiff.js: the file as geotiff.js's `GeoTIFF`, and the decoded values of
 * a window of one image (full resolution or an overview), decoded in the
 * workers with a `RepoFsPool`.
 *
 * @module
 */

export type { ByteSource } from "./src/formats/source.ts";
export type { Checksum, FileInfo } from "./src/base/types.ts";
export { geotiff } from "./src/formats/geotiff/open_geotiff.ts";
export type {
  GeotiffFile,
  GeotiffImage,
} from "./src/formats/geotiff/geotiff_file.ts";
export {
  readRaster,
  type ReadRasterOptions,
} from "./src/formats/geotiff/read_raster.ts";
export {
  type RasterSize,
  rasterSizes,
} from "./src/formats/geotiff/raster_sizes.ts";
export type {
  Raster,
  RasterArray,
} from "./src/formats/geotiff/raster_parts.ts";
export { GeotiffFormatError } from "./src/formats/geotiff/geotiff_format_error.ts";

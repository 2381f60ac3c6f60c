/**
 * One window of one image of an open GeoTIFF, decoded on this thread: what
 * `readRaster` does without a pool, and what a pool's worker does.
 *
 * @module
 */

import type { GeoTIFF, GeoTIFFImage } from "geotiff";
import type { ByteSource } from "../source.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import type { Raster, RasterArray, RasterPartRequest } from "./raster_parts.ts";
import { asFormatError, openRange } from "./open_geotiff.ts";
import { RangeSource } from "./range_source.ts";

/** NewSubfileType's bit of a transparency mask (GDAL's internal masks). */
const MASK = 4;

/**
 * The images of `tiff` that hold values: the full resolution, then the
 * overviews, without the masks GDAL writes between them.
 */
export async function rasterImages(
  tiff: GeoTIFF,
  path: string,
): Promise<GeoTIFFImage[]> {
  try {
    const images = [];
    for (let i = 0, count = await tiff.getImageCount(); i < count; i++) {
      const image = await tiff.getImage(i);
      const type = Number(image.fileDirectory.getValue("NewSubfileType") ?? 0);
      if ((type & MASK) === 0) images.push(image);
    }
    return images;
  } catch (error) {
    throw asFormatError(error, path);
  }
}

/** Image `index` of `tiff`: 0 the full resolution, then the overviews. */
export async function imageOf(
  tiff: GeoTIFF,
  index: number,
  path: string,
): Promise<GeoTIFFImage> {
  const images = await rasterImages(tiff, path);
  if (!Number.isInteger(index) || index < 0 || index >= images.length) {
    throw new GeotiffFormatError(
      path,
      `it has no image ${index} (it has ${images.length}: 0 is the full resolution, then the overviews)`,
    );
  }
  return images[index];
}

/** `window` checked against `image`'s size; the whole image when absent. */
export function checkedWindow(
  image: GeoTIFFImage,
  index: number,
  window: [number, number, number, number] | undefined,
  path: string,
): [number, number, number, number] {
  const width = image.getWidth();
  const height = image.getHeight();
  const [left, top, right, bottom] = window ?? [0, 0, width, height];
  const fits = [left, top, right, bottom].every(Number.isInteger) &&
    0 <= left && left < right && right <= width &&
    0 <= top && top < bottom && bottom <= height;
  if (!fits) {
    throw new GeotiffFormatError(
      path,
      `window [${[
        left,
        top,
        right,
        bottom,
      ]}] is not inside image ${index} (${width}x${height} pixels)`,
    );
  }
  return [left, top, right, bottom];
}

/** `samples` checked against `image`'s; every sample when absent. */
export function checkedSamples(
  image: GeoTIFFImage,
  samples: number[] | undefined,
  path: string,
): number[] {
  const count = image.getSamplesPerPixel();
  const all = Array.from({ length: count }, (_, i) => i);
  const asked = samples ?? all;
  const wrong = asked.find((s) => !Number.isInteger(s) || s < 0 || s >= count);
  if (wrong !== undefined) {
    throw new GeotiffFormatError(
      path,
      `it has no sample ${wrong} (it has ${count})`,
    );
  }
  return asked;
}

/** TIFF PhotometricInterpretation of YCbCr samples. */
const YCBCR = 6;

/**
 * The decoded values of `window` of `image`. YCbCr samples (as JPEG-
 * compressed COGs hold them) come as red, green and blue, as GDAL gives them.
 */
export async function readImageWindow(
  image: GeoTIFFImage,
  window: [number, number, number, number],
  samples: number[],
  path: string,
  signal?: AbortSignal,
): Promise<Raster> {
  try {
    const ycbcr = image.fileDirectory.getValue("PhotometricInterpretation") ===
      YCBCR;
    const rgb = ycbcr && samples.some((s) => s < 3)
      ? await image.readRGB({
        window,
        interleave: false,
        signal,
      }) as unknown as RasterArray[]
      : [];
    const others = samples.filter((s) => !ycbcr || s >= 3);
    const read = others.length === 0 ? [] : await image.readRasters({
      window,
      samples: others,
      interleave: false,
      signal,
    }) as unknown as RasterArray[];
    return {
      width: window[2] - window[0],
      height: window[3] - window[1],
      data: samples.map((s) =>
        ycbcr && s < 3 ? rgb[s] : read[others.indexOf(s)]
      ),
    };
  } catch (error) {
    throw asFormatError(error, path);
  }
}

/** A part a pool's worker was asked for, read from its own `source`. */
export async function readPart(
  source: ByteSource,
  request: RasterPartRequest,
  signal?: AbortSignal,
): Promise<Raster> {
  const { path, size, first, image: index, window, samples } = request;
  const tiff = await openRange(
    new RangeSource(source, path, size, first, signal),
    path,
  );
  const image = await imageOf(tiff, index, path);
  return await readImageWindow(image, window, samples, path, signal);
}

/**
 * One window of one image of an open GeoTIFF, decoded on this thread: what
 * `readRaster` does without a pool, and what a pool's worker does.
 *
 * @module
 */

import type { GeoTIFF, GeoTIFFImage } from "geotiff";
import type { ByteSource } from "../source.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import type {
  Raster,
  RasterArray,
  RasterPartRequest,
} from "./geotiff_decoders.ts";
import { asFormatError, openRange } from "./open_geotiff.ts";
import { RangeSource } from "./range_source.ts";

/** Image `index` of `tiff`: 0 the full resolution, then the overviews. */
export async function imageOf(
  tiff: GeoTIFF,
  index: number,
  path: string,
): Promise<GeoTIFFImage> {
  const count = await tiff.getImageCount().catch((error) => {
    throw asFormatError(error, path);
  });
  if (!Number.isInteger(index) || index < 0 || index >= count) {
    throw new GeotiffFormatError(
      path,
      `it has no image ${index} (it has ${count}: 0 is the full resolution, then the overviews)`,
    );
  }
  return await tiff.getImage(index);
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

/** The decoded values of `window` of `image`. */
export async function readImageWindow(
  image: GeoTIFFImage,
  window: [number, number, number, number],
  samples: number[],
  path: string,
  signal?: AbortSignal,
): Promise<Raster> {
  try {
    const data = await image.readRasters({
      window,
      samples: [...samples],
      interleave: false,
      signal,
    }) as unknown as RasterArray[];
    return {
      width: window[2] - window[0],
      height: window[3] - window[1],
      data: [...data],
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

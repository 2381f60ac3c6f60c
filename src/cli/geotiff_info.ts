/**
 * What `info` adds for a file named as a GeoTIFF (`.tif`, `.tiff`): its
 * size, bands, data type, CRS and overviews, from its header alone.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import { FormatError } from "../base/format_error.ts";
import type { ByteSource } from "../formats/source.ts";
import type { GeoTIFF } from "geotiff";
import { geotiff } from "../formats/geotiff/open_geotiff.ts";
import type { GeotiffImage } from "../formats/geotiff/geotiff_file.ts";
import { rasterImages } from "../formats/geotiff/read_window.ts";

const NAMES = /\.tiff?$/i;
/** The GeoKey value of a user-defined (not EPSG) system. */
const USER_DEFINED = 32767;

/** A GeoTIFF's shape and georeference. */
export interface GeotiffSummary {
  /** Width of the full-resolution image in pixels. */
  width: number;
  /** Height of the full-resolution image in pixels. */
  height: number;
  /** Samples (bands) per pixel. */
  bands: number;
  /** `uint8`, `int16`, `float32`, … */
  dataType: string;
  /** `EPSG:32633`, `user-defined`, or `null` when the file has no GeoKeys. */
  crs: string | null;
  /** `[minX, minY, maxX, maxY]` in the CRS's units, when georeferenced. */
  bounds?: number[];
  /** The no-data value GDAL wrote, if any. */
  noData?: number;
  /** Tile (or strip) width and height in pixels. */
  blocks: [number, number];
  /** Width and height of each overview, largest first. */
  overviews: [number, number][];
}

/**
 * The summary of `entry` when it is named as a GeoTIFF, `undefined` for any
 * other entry; a file geotiff.js cannot read gives its problem instead.
 */
export async function geotiffSummary(
  source: ByteSource,
  entry: FileInfo,
): Promise<GeotiffSummary | { problem: string } | undefined> {
  if (entry.type !== "file" || !NAMES.test(entry.name)) return undefined;
  try {
    const tiff = await geotiff(source, entry.name) as GeoTIFF;
    const [image, ...rest] = await rasterImages(tiff, entry.name);
    const overviews = rest.map((o): [number, number] => [
      o.getWidth(),
      o.getHeight(),
    ]);
    const noData = image.getGDALNoData();
    const bounds = georeferenced(image) ? image.getBoundingBox() : undefined;
    return {
      width: image.getWidth(),
      height: image.getHeight(),
      bands: image.getSamplesPerPixel(),
      dataType: dataType(image),
      crs: crsOf(image.getGeoKeys()),
      ...(bounds ? { bounds } : {}),
      ...(noData === null ? {} : { noData }),
      blocks: [image.getTileWidth(), image.getTileHeight()],
      overviews,
    };
  } catch (error) {
    if (error instanceof FormatError) return { problem: error.message };
    throw error;
  }
}

/** `info`'s lines for a GeoTIFF. */
export function geotiffLines(
  summary: GeotiffSummary | { problem: string },
): string[] {
  if ("problem" in summary) return [`not readable: ${summary.problem}`];
  const s = summary;
  return [
    `${s.width}x${s.height} pixels, ${s.bands} band${
      s.bands === 1 ? "" : "s"
    } of ${s.dataType}, blocks ${s.blocks.join("x")}`,
    `CRS: ${s.crs ?? "none"}${
      s.bounds ? `, bounds [${s.bounds.join(", ")}]` : ""
    }${s.noData === undefined ? "" : `, no data ${s.noData}`}`,
    `overviews: ${
      s.overviews.length === 0
        ? "none"
        : s.overviews.map(([w, h]) => `${w}x${h}`).join(", ")
    }`,
  ];
}

function dataType(image: GeotiffImage): string {
  const bits = image.getBitsPerSample(0);
  const kind = { 1: "uint", 2: "int", 3: "float" }[image.getSampleFormat(0)];
  return kind === undefined ? `${bits}-bit` : `${kind}${bits}`;
}

function crsOf(keys: Record<string, unknown> | null): string | null {
  if (keys === null) return null;
  const code = keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey;
  if (typeof code !== "number") return null;
  return code === USER_DEFINED ? "user-defined" : `EPSG:${code}`;
}

/** Whether the image has a model transformation (bounds mean something). */
function georeferenced(image: GeotiffImage): boolean {
  try {
    image.getOrigin();
    return true;
  } catch {
    return false;
  }
}

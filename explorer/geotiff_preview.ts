/**
 * A GeoTIFF: its images (full resolution and overviews), and the smallest
 * one that fills the view drawn with a colour scale (its first band),
 * decoded in the pool's workers for a dataset's file.
 *
 * @module
 */

/// <reference lib="dom" />

import { rasterSizes, readRaster } from "../geotiff.ts";
import type { ByteSource } from "../geotiff.ts";
import { el, table } from "./dom.ts";
import { drawField } from "./plot.ts";

/** The width, in pixels, an image must have to fill the view. */
const VIEW_PIXELS = 600;

/** The images as a table, and the chosen one drawn. */
export async function showGeotiff(
  view: HTMLElement,
  source: ByteSource,
  reader: ByteSource,
  path: string,
): Promise<void> {
  const sizes = await rasterSizes(source, path);
  const filling = sizes.map((size, index) => ({ ...size, index }))
    .filter((size) => size.width >= VIEW_PIXELS);
  const chosen = filling.at(-1)?.index ?? 0;
  const area = el("div", { class: "plot" });
  view.replaceChildren(
    table(
      ["image", "width", "height", "bands"],
      sizes.map((s, i) => [
        i === 0 ? "full resolution" : `overview ${i}`,
        String(s.width),
        String(s.height),
        String(s.samples),
      ]),
    ),
    el(
      "h3",
      {},
      chosen === 0 ? "Full resolution, band 1" : `Overview ${chosen}, band 1`,
    ),
    area,
  );
  area.dataset.state = "reading";
  const { width, height, data } = await readRaster(reader, path, {
    image: chosen,
    samples: [0],
  });
  const drawing = el("div", { class: "drawing" });
  area.append(drawing);
  drawField(drawing, data[0] as ArrayLike<number>, width, height);
  area.dataset.state = "drawn";
}

/**
 * Images the browser draws itself (PNG, JPEG, GIF, WebP, SVG as an image:
 * its scripts never run), read whole up to a bound.
 *
 * @module
 */

/// <reference lib="dom" />

import type { ByteSource } from "../zip.ts";
import { el } from "./dom.ts";

/** Larger images are not fetched for a preview. */
const LARGEST_IMAGE = 32 * 1024 * 1024;

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** The image, or a line saying it is too large to preview. */
export async function showImage(
  view: HTMLElement,
  source: ByteSource,
  path: string,
): Promise<void> {
  const { size } = await source.info(path);
  if (size === null || size > LARGEST_IMAGE) {
    view.replaceChildren(
      el(
        "p",
        {},
        "This image is too large to preview here; download it instead.",
      ),
    );
    return;
  }
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  const bytes = await source.catFile(path);
  const url = URL.createObjectURL(
    new Blob([bytes.slice()], { type: TYPES[extension] }),
  );
  const image = el("img", { src: url, alt: path, class: "image" });
  image.addEventListener("load", () => URL.revokeObjectURL(url), {
    once: true,
  });
  view.replaceChildren(image);
}

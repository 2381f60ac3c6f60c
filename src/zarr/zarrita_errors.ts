/**
 * zarrita's errors given their classes back after crossing from a worker,
 * where they travel as plain objects.
 *
 * @module
 */

import * as zarr from "zarrita";

/** zarrita's error classes, by the `_tag` each instance carries. */
const CLASSES: Record<string, { prototype: Error }> = {
  CodecPipelineError: zarr.CodecPipelineError,
  InvalidMetadataError: zarr.InvalidMetadataError,
  InvalidSelectionError: zarr.InvalidSelectionError,
  NotFoundError: zarr.NotFoundError,
  UnknownCodecError: zarr.UnknownCodecError,
  UnsupportedError: zarr.UnsupportedError,
};

/**
 * `error`, made an instance of zarrita's class again when it came from
 * zarrita (its `_tag` says which), so that `instanceof` and
 * `zarr.isZarritaError` hold for it as on the thread that threw it.
 */
export function withZarritaClass(error: unknown): unknown {
  const tag = (error as { _tag?: unknown } | null)?._tag;
  const zarritaClass = typeof tag === "string" ? CLASSES[tag] : undefined;
  if (
    zarritaClass !== undefined && error instanceof Error &&
    !zarr.isZarritaError(error)
  ) {
    Object.setPrototypeOf(error, zarritaClass.prototype);
  }
  return error;
}

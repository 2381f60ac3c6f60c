/**
 * `geotiff()`: a GeoTIFF of a source as geotiff.js's `GeoTIFF`.
 *
 * @module
 */

import { GeoTIFF } from "geotiff";
import type { ByteSource } from "../source.ts";
import type { GeotiffFile } from "./geotiff_file.ts";
import { FormatError } from "../../base/format_error.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import { isSourceError, RangeSource } from "./range_source.ts";

/**
 * File `path` of `source` as geotiff.js's `GeoTIFF`: opening it reads the
 * file's first 64 KiB in one request (a Cloud-Optimized GeoTIFF's header,
 * image directories and tile tables), and the tiles or strips that
 * geotiff.js reads afterwards are ranged requests of their bytes (those
 * side by side in the file joined into one), through the source's URL cache
 * and HEAD budget. A file that is not a
 * TIFF, or whose first directory cannot be read, fails with
 * {@linkcode GeotiffFormatError}.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { geotiff } from "@x/repo-fs/geotiff";
 * import { writeArrayBuffer } from "geotiff";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // A 4x3 single-band TIFF, written here by geotiff.js itself.
 * const tif = new Uint8Array(writeArrayBuffer(
 *   [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
 *   { width: 4, height: 3 },
 * ));
 * await using emu = await startEmulator({ files: { "small.tif": tif } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const tiff = await geotiff(fs, "small.tif");
 * const image = await tiff.getImage();
 * strictEqual(image.getWidth(), 4);
 * const [band] = await image.readRasters({ window: [1, 1, 3, 2] }) as Uint8Array[];
 * deepStrictEqual([...band], [6, 7]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param options `signal` aborts the reads made through the returned `GeoTIFF`
 */
export async function geotiff(
  source: ByteSource,
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<GeotiffFile> {
  const { size, type } = await source.info(path);
  if (type !== "file") throw new GeotiffFormatError(path, "it is a directory");
  return await openRange(
    new RangeSource(source, path, size, undefined, options.signal),
    path,
  );
}

/** The `GeoTIFF` read through `range`, its first directory checked. */
export async function openRange(
  range: RangeSource,
  path: string,
): Promise<GeoTIFF> {
  try {
    const tiff = await GeoTIFF.fromSource(
      range as unknown as Parameters<typeof GeoTIFF.fromSource>[0],
    );
    await tiff.getImage(0);
    return tiff;
  } catch (error) {
    throw asFormatError(error, path);
  }
}

const PROBLEMS: Record<string, string> = {
  "Invalid byte order value.":
    "it does not start with a TIFF byte order mark (II or MM)",
  "Invalid magic number.":
    "its TIFF version number is neither 42 (TIFF) nor 43 (BigTIFF)",
};

/** A failure of geotiff.js as a {@linkcode GeotiffFormatError}; the source's own failures as they are. */
export function asFormatError(error: unknown, path: string): unknown {
  if (
    isSourceError(error) || error instanceof FormatError ||
    (error instanceof Error && error.name === "AbortError")
  ) {
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new GeotiffFormatError(path, PROBLEMS[message] ?? message, {
    cause: error,
  });
}

/**
 * A Parquet file of a source as hyparquet's `AsyncBuffer`.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { ParquetFormatError } from "./parquet_format_error.ts";

/**
 * hyparquet's `AsyncBuffer`, written out here: a file's length, and its
 * bytes `start`..`end` (end exclusive; default the end of the file).
 *
 * @example
 * ```ts
 * import type { ParquetBuffer } from "@x/repo-fs/parquet";
 * import { strictEqual } from "node:assert/strict";
 * const bytes = new Uint8Array([1, 2, 3]);
 * const inMemory: ParquetBuffer = {
 *   byteLength: bytes.byteLength,
 *   slice: (start, end) => Promise.resolve(bytes.slice(start, end).buffer),
 * };
 * strictEqual((await inMemory.slice(1)).byteLength, 2);
 * ```
 */
export interface ParquetBuffer {
  /** The file's length in bytes. */
  byteLength: number;
  /** Bytes `start`..`end` (end exclusive; default the end of the file). */
  slice(start: number, end?: number): Promise<ArrayBuffer>;
}

/**
 * hyparquet's `AsyncBuffer` over file `path` of `source`: `byteLength` is
 * the listed size, and each `slice(start, end)` is one ranged `catFile`.
 * A slice outside the file fails with {@linkcode ParquetFormatError}
 * before anything is fetched.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { parquetFile } from "@x/repo-fs/parquet";
 * import { parquetMetadataAsync } from "hyparquet";
 * import { strictEqual } from "node:assert/strict";
 * const content = await Deno.readFile("fixtures/parquet/stations.snappy.parquet");
 * await using emu = await startEmulator({ files: { "stations.parquet": content } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const file = await parquetFile(fs, "stations.parquet");
 * strictEqual(file.byteLength, content.byteLength);
 * const metadata = await parquetMetadataAsync(file);
 * strictEqual(Number(metadata.num_rows), 10_000);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param options `signal` aborts every slice read through the buffer
 */
export async function parquetFile(
  source: ByteSource,
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<ParquetBuffer> {
  const { signal } = options;
  const { size, type } = await source.info(path);
  if (type !== "file" || size === null) {
    throw new ParquetFormatError(
      path,
      type === "file" ? "the listing gives no size" : "it is a directory",
    );
  }
  return {
    byteLength: size,
    async slice(start, end = size) {
      if (!(0 <= start && start <= end && end <= size)) {
        throw new ParquetFormatError(
          path,
          `bytes ${start}..${end} lie outside its ${size} bytes`,
        );
      }
      const bytes = await source.catFile(path, { start, end, signal });
      if (bytes.byteLength !== end - start) {
        throw new ParquetFormatError(
          path,
          `bytes ${start}..${end} gave ${bytes.byteLength} bytes`,
        );
      }
      return ownBuffer(bytes);
    },
  };
}

/** The bytes as an `ArrayBuffer` of their own. */
export function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes.buffer as ArrayBuffer : bytes.slice().buffer;
}

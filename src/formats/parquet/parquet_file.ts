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
 * // stations.parquet as pyarrow writes it: `id` 0..9 and `flag` (every third
 * // row) in two row groups of 5 rows; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA51RTWvCQBCd3aRrzEGCdBYXPOTiEiFKLeZUL14KBQ/SfxBs2gptTWM/rh79QR7z" +
 *     "4/o2LRQP7cFlHzPsmzdvmVnObyfsc8LJgkOmLjVHABLwAB9gYs06RUXEilX/hw6F5+2vHdvhjmPp" +
 *     "mG0fdz7DowJaQAC0T+/cZd/MMuqp7eqxeM7ZJ5YD2ZPrO2iQ+PdP+QPpc5Oa1FKfpclIRcYVMOlQ" +
 *     "7wSuXdhgmOKPEDurCGE2VMZSCBMnIzNQZL67Nbqpntq9uAHTiH6r9UHo0AYI9J/jTtpanOBZyz89" +
 *     "a+FMk7jMq9f34m20KstRXlWbz/ijqLbrzUt8mY0vxhOTYnxuglfY7hJr/wIxpm+R+wEAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const content = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "stations.parquet": content } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const file = await parquetFile(fs, "stations.parquet");
 * strictEqual(file.byteLength, content.byteLength);
 * const metadata = await parquetMetadataAsync(file); // hyparquet reads the footer by range
 * strictEqual(Number(metadata.num_rows), 10);
 * strictEqual(metadata.row_groups.length, 2);
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

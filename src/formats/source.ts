/**
 * What a format reader reads from: a `RepoFs`, a `RepoFsPool`, or a tree
 * made by a reader (a `zipTree`), so that readers chain.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import type { FileMetadata } from "../content/file_metadata.ts";

/**
 * Anything with `info(path)` and ranged `catFile`: a `RepoFs`, a
 * `RepoFsPool`, or a `zipTree`.
 *
 * @example
 * ```ts
 * import { type ByteSource, head } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * // A source of your own: one file held in memory.
 * const bytes = new TextEncoder().encode("station,t\nA,1.5\nB,2.25\n");
 * const inMemory: ByteSource = {
 *   info: (name) => Promise.resolve({ name, type: "file", size: bytes.byteLength }),
 *   catFile: (_path, { start = 0, end = bytes.byteLength } = {}) =>
 *     Promise.resolve(bytes.slice(start, end)),
 * };
 * deepStrictEqual(await head(inMemory, "obs.csv", 2), ["station,t", "A,1.5"]);
 * ```
 */
export interface ByteSource {
  /** The entry of a path: its `type` and `size`. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of a file, or of `start`..`end` (end exclusive, negatives from the end). */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
  /**
   * Where format readers keep the parsed metadata of its files, so that a
   * second read of a file parses nothing again; absent: parsed on each read.
   */
  readonly metadata?: FileMetadata;
}

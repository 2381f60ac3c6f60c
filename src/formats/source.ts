/**
 * What a format reader reads from: a `RepoFs`, a `RepoFsPool`, a `zipTree`.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";

/**
 * Anything that gives a file's entry and its bytes by range: a `RepoFs`, a
 * `RepoFsPool`, or a `zipTree`, so that format readers chain.
 *
 * @example
 * ```ts
 * import type { ByteSource } from "@x/repo-fs/text";
 * import { head } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * const file = new TextEncoder().encode("a\nb\n");
 * const inMemory: ByteSource = {
 *   info: (path) => Promise.resolve({ name: path, type: "file", size: file.byteLength }),
 *   catFile: (_path, { start = 0, end } = {}) =>
 *     Promise.resolve(file.slice(start, end)),
 * };
 * deepStrictEqual(await head(inMemory, "notes.txt", 1), ["a"]);
 * ```
 */
export interface ByteSource {
  /** The entry of a path. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of a file, or of `start`..`end` (end exclusive, negatives from the end). */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
}

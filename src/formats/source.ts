/**
 * What a format reader reads from: a `RepoFs`, a `RepoFsPool`, or a tree
 * made by a reader (a `zipTree`), so that readers chain.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";

/**
 * Anything with `info(path)` and ranged `catFile`: a `RepoFs`, a
 * `RepoFsPool`, or a `zipTree`.
 */
export interface ByteSource {
  /** The entry of a path: its `type` and `size`. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of a file, or of `start`..`end` (end exclusive, negatives from the end). */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
}

/**
 * What a format reader reads from: a `RepoFs`, a `RepoFsPool`, or a tree
 * mounted from an archive.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";

/**
 * A tree of files read by range: `info` gives a file's size (and its
 * repository id), `catFile` its bytes `start`..`end` (end exclusive).
 */
export interface ByteSource {
  /** The entry of `path`. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of `path`, or of `start`..`end` of it. */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
}

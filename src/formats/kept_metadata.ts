/**
 * How a format reader parses a file's metadata once per source: through
 * the source's `metadata` where it has one, with the file's reads held to
 * one object of it.
 *
 * @module
 */

import { abortable } from "../base/abort_callbacks.ts";
import type { PinnedReads } from "../content/file_metadata.ts";
import type { ByteSource } from "./source.ts";

export type { MetadataSeed } from "../content/file_metadata.ts";

/** One file's reads as sources: its metadata reads, and its data reads. */
export interface FileSources {
  /** Reads of the file's metadata (kept, and sent to a pool's workers). */
  metadata: ByteSource;
  /** Reads of the file's data (chunks, pages). */
  data: ByteSource;
}

/**
 * What `parse` makes of file `path` of `source`, parsed once per object of
 * the file where `source` keeps metadata (`kind` names the reader), else
 * on every call. A kept parse goes on when `signal` aborts (the caller's
 * wait ends); an unkept one is aborted.
 */
export function keptMetadata<T>(
  source: ByteSource,
  path: string,
  kind: string,
  parse: (sources: FileSources, signal?: AbortSignal) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (source.metadata === undefined) {
    return parse({ metadata: source, data: source }, signal);
  }
  return abortable(
    source.metadata.kept(
      path,
      kind,
      (reads) => parse(fileSources(source, path, reads)),
    ),
    signal,
  );
}

/** `source`, with the reads of `path` made through `reads`. */
function fileSources(
  source: ByteSource,
  path: string,
  reads: PinnedReads,
): FileSources {
  const through = (read: PinnedReads["data"]): ByteSource => ({
    info: (p) => source.info(p),
    catFile: async (p, options = {}) => {
      if (p !== path) return await source.catFile(p, options);
      const { size } = await source.info(path);
      const whole = size ?? Infinity;
      const at = (n: number | undefined, fallback: number) =>
        n === undefined ? fallback : n < 0 ? Math.max(0, whole + n) : n;
      return await read(
        at(options.start, 0),
        Math.min(whole, at(options.end, whole)),
        options.signal,
      );
    },
  });
  return { metadata: through(reads.metadata), data: through(reads.data) };
}

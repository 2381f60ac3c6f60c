/**
 * A pool's `open()`: a `RepoFile` whose reads are the pool's `catFile`, so
 * that they run in the workers, and whose stream reads a window at a time;
 * all are held to the object of the handle's first answer.
 *
 * @module
 */

import { IsADirectoryError } from "../base/errors.ts";
import type { FileInfo } from "../base/types.ts";
import { SameObject } from "../content/same_object.ts";
import { type ReadOptions, type RepoFile, repoFile } from "../repo_file.ts";

/** Bytes a pool's file stream asks of a worker at a time. */
export const STREAM_WINDOW = 4 << 20;

/** What a pool's file reads through. */
export interface FileReads {
  /** The entry of a path. */
  info(path: string): Promise<FileInfo>;
  /** The bytes of a file, or of a range of it, every answer of `object`. */
  catFile(
    path: string,
    options: { start?: number; end?: number; signal?: AbortSignal },
    object: SameObject,
  ): Promise<Uint8Array>;
}

/** A range of the opened file, read in a worker. */
type Read = (
  range: { start?: number; end?: number; signal?: AbortSignal },
) => Promise<Uint8Array>;

/** The file `path` opened over `reads`; a directory is an {@linkcode IsADirectoryError}. */
export async function poolFile(
  reads: FileReads,
  path: string,
): Promise<RepoFile> {
  const entry = await reads.info(path);
  if (entry.type === "directory") throw new IsADirectoryError(entry.name);
  const object = new SameObject();
  const read: Read = (range) => reads.catFile(entry.name, range, object);
  return repoFile(
    entry.name,
    entry.size,
    ({ start, end, signal }) =>
      read({ start: start ?? undefined, end: end ?? undefined, signal }),
    (options) => windows(read, entry, options),
  );
}

/**
 * Bytes `start` to `end` of the file as windows of {@linkcode STREAM_WINDOW},
 * read one after the other. A negative bound is counted from the listed
 * size when the file is served as listed; otherwise the range is one read.
 */
function windows(
  read: Read,
  entry: FileInfo,
  { start, end, signal }: ReadOptions,
): ReadableStream<Uint8Array> {
  const size = entry.size !== null && !entry.tabular ? entry.size : undefined;
  const absolute = (bound: number | null | undefined) =>
    bound != null && bound < 0 && size !== undefined
      ? Math.max(0, size + bound)
      : bound ?? undefined;
  let at = absolute(start) ?? 0;
  const stop = absolute(end);
  const unsized = at < 0 || (stop !== undefined && stop < 0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (unsized) {
        const bytes = await read({ start: at, end: stop, signal });
        if (bytes.byteLength > 0) controller.enqueue(bytes);
        return controller.close();
      }
      const want = Math.min(STREAM_WINDOW, (stop ?? Infinity) - at);
      const bytes = want > 0
        ? await read({ start: at, end: at + want, signal })
        : new Uint8Array(0);
      at += bytes.byteLength;
      if (bytes.byteLength > 0) controller.enqueue(bytes);
      if (bytes.byteLength < want || want <= 0) controller.close();
    },
  }, { highWaterMark: 0 });
}

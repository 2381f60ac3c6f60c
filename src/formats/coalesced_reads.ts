/**
 * Small reads of one file asked for together (the chunks of one array
 * read) fetched as few ranges: neighbours at most {@linkcode MERGE_GAP}
 * apart in one request of at most {@linkcode MERGE_MOST} bytes, each read
 * then given its own bytes.
 *
 * @module
 */

import { abortable, whenAborted } from "../base/abort_callbacks.ts";
import type { ByteSource } from "./source.ts";

/** Bytes between two reads that are fetched anyway to make one request of them. */
export const MERGE_GAP = 64 * 1024;

/** Most bytes of one merged request. */
export const MERGE_MOST = 4 * 2 ** 20;

interface Pending {
  start: number;
  end: number;
  signal?: AbortSignal;
  resolve(bytes: Uint8Array): void;
  reject(error: unknown): void;
}

/**
 * `source`, whose reads of `path` with a `start` and an `end` asked in one
 * turn of the event loop are fetched merged; other reads pass through.
 * Each read is given its own copy of its bytes, or with `shared` (for a
 * reader that decodes them at once into new memory) a view of the merged
 * request's.
 */
export function coalescing(
  source: ByteSource,
  path: string,
  { shared = false }: { shared?: boolean } = {},
): ByteSource {
  let pending: Pending[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    const reads = pending.sort((a, b) => a.start - b.start);
    pending = [];
    timer = undefined;
    for (const group of mergedRuns(reads)) {
      fetchGroup(source, path, group, shared);
    }
  };
  // A read aborted before the flush leaves the batch, and no timer outlives the last one.
  const leave = (read: Pending) => {
    pending = pending.filter((other) => other !== read);
    if (pending.length === 0 && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  return {
    info: (p) => source.info(p),
    catFile: (p, options = {}) => {
      const { start, end, signal } = options;
      if (
        p !== path || start === undefined || end === undefined || start < 0 ||
        end < start
      ) {
        return source.catFile(p, options);
      }
      if (signal?.aborted) return Promise.reject(signal.reason);
      timer ??= setTimeout(flush, 0);
      let entry!: Pending;
      const read = new Promise<Uint8Array>((resolve, reject) => {
        entry = { start, end, signal, resolve, reject };
        pending.push(entry);
      });
      const forget = whenAborted(signal, () => leave(entry));
      return abortable(read, signal).finally(forget);
    },
  };
}

/**
 * `sorted` (by `start`) cut into runs that one request each fetches:
 * neighbours at most `gap` apart, at most {@linkcode MERGE_MOST} bytes a run.
 */
export function mergedRuns<T extends { start: number; end: number }>(
  sorted: T[],
  gap: number = MERGE_GAP,
): T[][] {
  const runs: T[][] = [];
  let end = -Infinity;
  for (const read of sorted) {
    const run = runs.at(-1);
    if (
      run && read.start - end <= gap &&
      Math.max(end, read.end) - run[0].start <= MERGE_MOST
    ) {
      run.push(read);
      end = Math.max(end, read.end);
    } else {
      runs.push([read]);
      end = read.end;
    }
  }
  return runs;
}

/** One request for `group`, each read given its part (or the failure). */
function fetchGroup(
  source: ByteSource,
  path: string,
  group: Pending[],
  shared: boolean,
): void {
  const start = group[0].start;
  const end = Math.max(...group.map((read) => read.end));
  // A read's abort ends only its wait; the request stops once all reads have.
  const stop = new AbortController();
  let waiting = group.length;
  const forget = group.map(({ signal }) => {
    const done = () => {
      if (--waiting === 0) stop.abort(signal!.reason);
    };
    if (signal?.aborted) done();
    return whenAborted(signal, done);
  });
  const signal = group.some((read) => read.signal) ? stop.signal : undefined;
  source.catFile(path, { start, end, signal }).then(
    (bytes) => {
      for (const read of group) {
        const own = bytes.subarray(read.start - start, read.end - start);
        read.resolve(group.length === 1 || shared ? own : own.slice());
      }
    },
    (error) => {
      for (const read of group) read.reject(error);
    },
  ).finally(() => forget.forEach((forgetOne) => forgetOne()));
}

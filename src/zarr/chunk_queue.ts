/**
 * A queue for zarrita's `get` that keeps as many chunk reads in flight as a
 * {@linkcode ReadWindow} says, tells the window how they went, and starts no
 * new read once one has failed.
 *
 * @module
 */

import type { ReadStart, ReadWindow } from "./read_window.ts";

/**
 * zarrita's `ChunkQueue` (p-queue compatible) running at most `window.size`
 * tasks at once, timed by the window. Each task that ends tells the window:
 * `congested()` when the source read retried a request since the last one
 * ended, `completed()` when it succeeded. After a task fails, tasks not yet
 * started are skipped, and `onIdle` waits for the running ones to settle,
 * then rejects with the first failure.
 *
 * @param window how many tasks to run at once, told how each went
 * @param retriesSoFar the retries the source read has backed off for so far
 */
export function chunkQueue(
  window: ReadWindow,
  retriesSoFar: () => number,
): {
  add(task: () => Promise<void>): void;
  onIdle(): Promise<void[]>;
} {
  const waiting: ((() => void) | undefined)[] = [];
  let next = 0;
  const settled: Promise<void>[] = [];
  let running = 0;
  let failure: { error: unknown } | undefined;
  let retriesSeen = retriesSoFar();

  const pump = () => {
    while (running < window.size && next < waiting.length) {
      const start = waiting[next]!;
      waiting[next++] = undefined;
      start();
    }
  };
  const ended = (start: ReadStart, error?: { error: unknown }) => {
    running--;
    const retries = retriesSoFar();
    if (retries > retriesSeen) window.congested();
    retriesSeen = retries;
    if (error) failure ??= error;
    else window.completed(start);
    pump();
  };

  return {
    add(task) {
      settled.push(
        new Promise((resolve) => {
          waiting.push(() => {
            if (failure) return resolve();
            running++;
            const start = window.started();
            new Promise<void>((run) => run(task())).then(
              () => ended(start),
              (error) => ended(start, { error }),
            ).finally(resolve);
          });
        }),
      );
      pump();
    },
    async onIdle() {
      let results: void[] = [];
      while (results.length < settled.length) {
        results = await Promise.all(settled);
      }
      if (failure) throw failure.error;
      return results;
    },
  };
}

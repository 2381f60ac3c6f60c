/**
 * A queue for zarrita's `get` that keeps a bounded number of chunk reads in
 * flight, and starts no new read once one has failed.
 *
 * @module
 */

import { Semaphore } from "../base/semaphore.ts";

/**
 * Chunk reads one `getArray` keeps in flight.
 *
 * @example
 * ```ts
 * import { boundedChunkQueue, CHUNKS_IN_FLIGHT } from "./chunk_queue.ts";
 * const queue = boundedChunkQueue(CHUNKS_IN_FLIGHT);
 * ```
 */
export const CHUNKS_IN_FLIGHT = 32;

/**
 * zarrita's `ChunkQueue` (p-queue compatible) with at most `limit` tasks
 * running. After a task fails, tasks not yet started are skipped and
 * `onIdle` rejects with the first failure.
 *
 * @example
 * ```ts
 * import { boundedChunkQueue } from "./chunk_queue.ts";
 * import { rejects, strictEqual } from "node:assert/strict";
 * const queue = boundedChunkQueue(2);
 * let done = 0;
 * for (let i = 0; i < 5; i++) queue.add(async () => void done++);
 * await queue.onIdle();
 * strictEqual(done, 5);
 *
 * // After a failure, tasks not yet started are skipped.
 * const failing = boundedChunkQueue(1);
 * let started = 0;
 * failing.add(() => Promise.reject(new Error("bad chunk")));
 * failing.add(async () => void started++);
 * await rejects(failing.onIdle(), /bad chunk/);
 * strictEqual(started, 0);
 * ```
 */
export function boundedChunkQueue(limit: number): {
  add(task: () => Promise<void>): void;
  onIdle(): Promise<void[]>;
} {
  const slots = new Semaphore(limit);
  const settled: Promise<void>[] = [];
  let failed = false;
  return {
    add(task) {
      const run = async () => {
        if (failed) return;
        try {
          await task();
        } catch (error) {
          failed = true;
          throw error;
        }
      };
      settled.push(slots.run(run).then(() => {}));
    },
    onIdle: () => Promise.all(settled),
  };
}

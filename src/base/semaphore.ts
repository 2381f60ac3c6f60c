/**
 * A counting semaphore that reports how long each caller waited, and whose
 * waiters can leave the queue.
 *
 * @module
 */

import { whenAborted } from "./abort_callbacks.ts";

/**
 * Limits how many tasks run at once; extra callers wait in FIFO order. A
 * waiter whose signal aborts leaves the queue without taking a place.
 */
export class Semaphore {
  readonly #waiting = new Set<() => void>();
  #free: number;

  /** @param size how many tasks may run at once (integer >= 1) */
  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) {
      throw new TypeError(
        `A semaphore size must be an integer >= 1, got ${size}`,
      );
    }
    this.#free = size;
  }

  /**
   * Takes a place, waiting for one if none is free; resolves to the function
   * that gives it back. Aborting `signal` while waiting rejects with its
   * reason and takes no place.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        forget();
        resolve(this.#releaser());
      };
      const forget = whenAborted(signal, () => {
        this.#waiting.delete(grant);
        reject(signal!.reason);
      });
      this.#waiting.add(grant);
    });
  }

  /** Runs `task` once a place is free; resolves to its value and the wait. */
  async run<T>(
    task: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<{ value: T; waitedMs: number }> {
    const asked = performance.now();
    const release = await this.acquire(signal);
    const waitedMs = performance.now() - asked;
    try {
      return { value: await task(), waitedMs };
    } finally {
      release();
    }
  }

  /** Gives the place to the first waiter, or frees it; works once. */
  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const [next] = this.#waiting;
      if (next === undefined) {
        this.#free++;
        return;
      }
      this.#waiting.delete(next);
      next();
    };
  }
}

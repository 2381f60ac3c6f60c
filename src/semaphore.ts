/**
 * A counting semaphore that reports how long each caller waited.
 *
 * @module
 */

/**
 * Limits how many tasks run at once; extra callers wait in FIFO order.
 *
 * @example
 * ```ts
 * import { Semaphore } from "./semaphore.ts";
 * const heads = new Semaphore(3);
 * const { value, waitedMs } = await heads.run(() => Promise.resolve(42));
 * console.log(value, waitedMs >= 0); // 42 true
 * ```
 */
export class Semaphore {
  readonly #waiting: (() => void)[] = [];
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

  /** Runs `task` once a place is free; resolves to its value and the wait. */
  async run<T>(
    task: () => Promise<T>,
  ): Promise<{ value: T; waitedMs: number }> {
    const asked = performance.now();
    if (this.#free > 0) {
      this.#free--;
    } else {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    const waitedMs = performance.now() - asked;
    try {
      return { value: await task(), waitedMs };
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    }
  }
}

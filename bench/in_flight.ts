/**
 * Running many tasks a bounded number at a time, for the benchmark scripts.
 *
 * @module
 */

/**
 * Runs `task(0)` … `task(count - 1)`, `limit` at a time, in order of
 * start.
 *
 * @example
 * ```ts
 * import { inFlight } from "./in_flight.ts";
 * const done: number[] = [];
 * await inFlight(2, 5, async (i) => void done.push(i));
 * ```
 */
export async function inFlight(
  limit: number,
  count: number,
  task: (i: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

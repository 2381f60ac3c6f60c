/**
 * Waiting that never outlives its reason: every wait of the emulator ends
 * when the client goes away or the emulator closes, and leaves no timer.
 *
 * @module
 */

import { delay } from "../base/delay.ts";

/**
 * Resolves after `ms` milliseconds, or at once when `signal` aborts: the
 * library's one `delay`, with the abort taken as the end of the wait.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, signal).catch(() => {});
}

/** Resolves when `signal` aborts. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * A signal that aborts when the client of `request` goes away or `closed`
 * aborts. Reading `request.signal` makes `Deno.serve` print a one-time
 * notice about its legacy abort behavior, so call this only for a request
 * that really waits.
 */
export function goneSignal(
  request: Request,
  closed: AbortSignal,
): AbortSignal {
  return AbortSignal.any([request.signal, closed]);
}

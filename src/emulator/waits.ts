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
 *
 * @example
 * ```ts
 * import { sleep } from "./waits.ts";
 * import { strictEqual } from "node:assert/strict";
 * const stop = new AbortController();
 * const waiting = sleep(60_000, stop.signal);
 * stop.abort();
 * strictEqual(await waiting, undefined); // resolves, not rejects, its timer cleared
 * ```
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, signal).catch(() => {});
}

/**
 * Resolves when `signal` aborts.
 *
 * @example
 * ```ts
 * import { untilAborted } from "./waits.ts";
 * import { strictEqual } from "node:assert/strict";
 * const stop = new AbortController();
 * const waiting = untilAborted(stop.signal);
 * stop.abort();
 * strictEqual(await waiting, undefined);
 * strictEqual(await untilAborted(AbortSignal.abort()), undefined); // aborted already
 * ```
 */
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
 *
 * @example
 * ```ts
 * import { goneSignal } from "./waits.ts";
 * import { strictEqual } from "node:assert/strict";
 * const closing = new AbortController();
 * const gone = goneSignal(new Request("http://x/"), closing.signal);
 * strictEqual(gone.aborted, false);
 * closing.abort();
 * strictEqual(gone.aborted, true);
 * ```
 */
export function goneSignal(
  request: Request,
  closed: AbortSignal,
): AbortSignal {
  return AbortSignal.any([request.signal, closed]);
}

/**
 * Waiting that an abort ends: the one `delay` of repo-fs.
 *
 * @module
 */

import { whenAborted } from "./abort_callbacks.ts";

/**
 * Resolves after `ms` milliseconds; rejects with the signal's reason as soon
 * as `signal` aborts (at once when it already has).
 *
 * @example
 * ```ts
 * import { delay } from "./delay.ts";
 * import { rejects } from "node:assert/strict";
 * await delay(1);
 * await rejects(delay(60_000, AbortSignal.abort(new Error("stop"))), /stop/);
 * ```
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      forget();
      resolve();
    }, ms);
    const forget = whenAborted(signal, () => {
      clearTimeout(timer);
      reject(signal!.reason);
    });
  });
}

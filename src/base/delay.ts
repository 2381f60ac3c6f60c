/**
 * Waiting that an abort ends: the one `delay` of repo-fs.
 *
 * @module
 */

import { whenAborted } from "./abort_callbacks.ts";

/**
 * Resolves after `ms` milliseconds; rejects with the signal's reason as soon
 * as `signal` aborts (at once when it already has).
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

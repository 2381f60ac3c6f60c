/**
 * Stop signals: Ctrl-C (SIGINT) everywhere, and SIGTERM where the system has
 * it, so that `get` and `cat` can stop cleanly and `emulate` can close its
 * servers.
 *
 * @module
 */

/**
 * Exit status of a run stopped by a stop signal, as shells report Ctrl-C.
 *
 * @example
 * ```ts
 * import { INTERRUPTED } from "./signals.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(INTERRUPTED, 130);
 * ```
 */
export const INTERRUPTED = 130;

/**
 * Calls `handler` on SIGINT or SIGTERM until the returned function is
 * called, which removes the listeners.
 *
 * @example
 * ```ts
 * import { onStopSignal } from "./signals.ts";
 * const controller = new AbortController();
 * const dispose = onStopSignal(() => controller.abort());
 * dispose();
 * ```
 */
export function onStopSignal(handler: () => void): () => void {
  const signals: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM"];
  for (const signal of signals) Deno.addSignalListener(signal, handler);
  return () => {
    for (const signal of signals) Deno.removeSignalListener(signal, handler);
  };
}

/**
 * An `AbortSignal` that SIGINT or SIGTERM aborts, until disposed.
 *
 * @example
 * ```ts
 * import { stopSignal } from "./signals.ts";
 * import { strictEqual } from "node:assert/strict";
 * using stop = stopSignal();
 * strictEqual(stop.signal.aborted, false); // until Ctrl-C or SIGTERM
 * ```
 */
export function stopSignal(): { signal: AbortSignal } & Disposable {
  const controller = new AbortController();
  const dispose = onStopSignal(() =>
    controller.abort(new DOMException("Stopped by a signal", "AbortError"))
  );
  return { signal: controller.signal, [Symbol.dispose]: dispose };
}

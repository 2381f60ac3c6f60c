/**
 * Stop signals: Ctrl-C (SIGINT) everywhere, and SIGTERM where the system has
 * it, so that `get` can clean up and `emulate` can close its servers.
 *
 * @module
 */

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

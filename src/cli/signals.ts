/**
 * Stop signals: Ctrl-C (SIGINT) everywhere, and SIGTERM where the system has
 * it, so that `get` and `cat` can stop cleanly and `emulate` can close its
 * servers.
 *
 * @module
 */

/** Exit status of a run stopped by a stop signal, as shells report Ctrl-C. */
export const INTERRUPTED = 130;

/**
 * Calls `handler` on SIGINT or SIGTERM until the returned function is
 * called, which removes the listeners.
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

/** An `AbortSignal` that SIGINT or SIGTERM aborts, until disposed. */
export function stopSignal(): { signal: AbortSignal } & Disposable {
  const controller = new AbortController();
  const dispose = onStopSignal(() =>
    controller.abort(new DOMException("Stopped by a signal", "AbortError"))
  );
  return { signal: controller.signal, [Symbol.dispose]: dispose };
}

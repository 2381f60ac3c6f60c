/**
 * Abort callbacks that cost the same however many wait on one signal.
 *
 * One signal often reaches thousands of waits: a `Promise.all` of 20,000
 * `catFile` calls given the same signal, or a pool worker's job, whose
 * signal every chunk read of its part passes down. `EventTarget` goes
 * through all of a signal's listeners to add or remove one, so such waits
 * cost time quadratic in their number: those 20,000 reads took 2.85× as
 * long with a signal as without (bench/shared_signal.ts). Here a signal
 * gets one listener, and its callbacks wait in a `Set`.
 *
 * @module
 */

const callbacksOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts, unless the returned function
 * was called first; nothing happens when `signal` is `undefined` or has
 * already aborted. Callbacks run in the order they were added; one that
 * throws does not stop the others, and its error is thrown from the
 * signal's one listener, as a listener's own error would be. Each call
 * needs a function of its own: adding one function twice adds it once.
 */
export function whenAborted(
  signal: AbortSignal | undefined,
  callback: () => void,
): () => void {
  if (signal === undefined || signal.aborted) return () => {};
  let callbacks = callbacksOf.get(signal);
  if (callbacks === undefined) {
    const waiting = new Set<() => void>();
    callbacksOf.set(signal, waiting);
    signal.addEventListener("abort", () => {
      callbacksOf.delete(signal);
      let failure: { error: unknown } | undefined;
      for (const waiter of waiting) {
        try {
          waiter();
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure) throw failure.error;
    }, { once: true });
    callbacks = waiting;
  }
  callbacks.add(callback);
  return () => callbacks.delete(callback);
}

/**
 * `promise`, or the abort reason of the first of `signals` to abort while
 * it is pending: a wait that others share (the listing) goes on for them,
 * and its later failure is not left unhandled.
 */
export function abortable<T>(
  promise: Promise<T>,
  ...signals: (AbortSignal | undefined)[]
): Promise<T> {
  promise.catch(() => {});
  const waits = signals.filter((signal) => signal !== undefined);
  if (waits.length === 0) return promise;
  return new Promise<T>((resolve, reject) => {
    const forget = waits.map((signal) =>
      whenAborted(signal, () => reject(signal.reason))
    );
    for (const signal of waits) if (signal.aborted) reject(signal.reason);
    promise.then(resolve, reject).finally(() => {
      for (const forgetOne of forget) forgetOne();
    });
  });
}

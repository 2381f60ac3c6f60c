/**
 * One HTTP exchange with an idle deadline: redirects are never followed, the
 * caller's `AbortSignal` is honoured, and transport failures and silences
 * become {@linkcode RepoConnectionError}s, which the retry policy retries.
 *
 * @module
 */

import { RepoConnectionError } from "../base/errors.ts";
import { whenAborted } from "../base/abort_callbacks.ts";

/**
 * What every request needs: the transport and how long it may take.
 *
 * @example
 * ```ts
 * import { plainFetch, type Transport } from "./request.ts";
 * const transport: Transport = { fetch: plainFetch(), timeoutMs: 60_000 };
 * ```
 */
export interface Transport {
  /** The `fetch` to call. */
  fetch: typeof fetch;
  /** Longest a request may go without progress, in milliseconds. */
  timeoutMs: number;
}

/**
 * `fetch` (the global one when absent) called as a plain function: browsers
 * refuse a native `fetch` called as a method of another object, such as a
 * {@linkcode Transport} ("Illegal invocation").
 *
 * @example
 * ```ts
 * import { plainFetch } from "./request.ts";
 * import { equal } from "node:assert/strict";
 * const transport = { fetch: plainFetch(), timeoutMs: 1000 };
 * equal(typeof transport.fetch, "function");
 * ```
 */
export function plainFetch(
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  return (input, init) => fetch(input, init);
}

/**
 * An abort signal that fires when the caller aborts or when no progress was
 * made for `timeoutMs` while something was awaited through
 * {@linkcode Deadline.race}: the time a reader takes between two reads of a
 * body is its own, not the server's.
 *
 * @example
 * ```ts
 * import { Deadline } from "./request.ts";
 * import { ok, rejects, strictEqual } from "node:assert/strict";
 * const deadline = new Deadline(50);
 * deadline.rearm(); // progress: 50 ms more
 * await rejects(deadline.race(new Promise(() => {}))); // then nothing comes
 * ok(deadline.signal.aborted);
 * const error = deadline.explain(undefined, "https://r.example/api/x") as Error;
 * strictEqual(error.message, "Request to https://r.example/api/x failed: nothing received for 50 ms");
 * deadline.dispose();
 * ```
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #forgetOuter: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastProgress = performance.now();
  #timedOut = false;
  /** Promises being raced now. */
  #racing = 0;

  /**
   * Starts the clock.
   * @param timeoutMs longest stretch without progress
   * @param outer the caller's signal
   */
  constructor(readonly timeoutMs: number, readonly outer?: AbortSignal) {
    outer?.throwIfAborted();
    this.#forgetOuter = whenAborted(
      outer,
      () => this.#controller.abort(outer!.reason),
    );
    this.#arm(timeoutMs);
  }

  /** Aborts when the caller aborts or time runs out. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Restarts the clock after progress. */
  rearm(): void {
    this.#lastProgress = performance.now();
  }

  /**
   * One timer per stretch: when it fires early because of progress, it
   * waits out the rest; while nothing is raced, it waits a whole stretch.
   */
  #arm(ms: number): void {
    this.#timer = setTimeout(() => {
      if (this.#racing === 0) return this.#arm(this.timeoutMs);
      const left = this.#lastProgress + this.timeoutMs - performance.now();
      if (left > 0) return this.#arm(left);
      this.#timedOut = true;
      this.#controller.abort();
    }, ms);
  }

  /**
   * `promise`, or its rejection with the abort reason as soon as time runs
   * out or the caller aborts, whichever comes first: a body read on an
   * aborted request does not always end by itself. The clock starts anew
   * when a race begins with none under way.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    if (signal.aborted) {
      promise.catch(() => {});
      return Promise.reject(signal.reason);
    }
    if (this.#racing++ === 0) this.rearm();
    return new Promise<T>((resolve, reject) => {
      // This request's own signal: one listener here, no fan-out needed.
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => {
        this.#racing--;
        signal.removeEventListener("abort", onAbort);
      });
    });
  }

  /** Stops the clock and detaches from the caller's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#forgetOuter();
  }

  /**
   * What a failure during the exchange means: the caller's abort reason, a
   * silence of `timeoutMs`, a connection failure, or the error itself.
   */
  explain(error: unknown, url: string): unknown {
    if (this.outer?.aborted) return this.outer.reason;
    if (this.#timedOut) {
      const reason = `nothing received for ${this.timeoutMs} ms`;
      return new RepoConnectionError(url, reason, { cause: error });
    }
    if (error instanceof TypeError) {
      return new RepoConnectionError(url, failureText(error), { cause: error });
    }
    return error;
  }
}

/**
 * A failed `fetch`'s message, with its cause's when that says more: Deno's
 * "fetch failed" and undici's "terminated" keep what happened (a refused
 * connection, a closed socket) one level down.
 */
function failureText(error: Error): string {
  const { cause } = error;
  return cause instanceof Error && !error.message.includes(cause.message)
    ? `${error.message}: ${cause.message}`
    : error.message;
}

/**
 * The body of `response` as text, each chunk that arrives restarting
 * `deadline`: a long answer over a slow link is read for as long as it keeps
 * coming, as content is.
 *
 * @example
 * ```ts
 * import { bodyText, Deadline } from "./request.ts";
 * import { strictEqual } from "node:assert/strict";
 * const deadline = new Deadline(1000);
 * strictEqual(await bodyText(new Response("{\"status\":\"OK\"}"), deadline), '{"status":"OK"}');
 * deadline.dispose();
 * ```
 */
export async function bodyText(
  response: Response,
  deadline: Deadline,
): Promise<string> {
  if (response.body === null) return "";
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of response.body) {
    deadline.rearm();
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Sends one request (redirects not followed, unless `init.redirect` says
 * so) and hands the response to `consume` while the deadline runs; an
 * unread body is cancelled after.
 *
 * @example
 * ```ts
 * import { exchange, plainFetch } from "./request.ts";
 * import { startEmulator } from "../../emulator.ts";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const transport = { fetch: plainFetch(), timeoutMs: 10_000 };
 * const url = `${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`;
 * const status = await exchange(transport, url, {}, undefined, (r) => Promise.resolve(r.status));
 * strictEqual(status, 303); // the redirect to the store is not followed
 * ```
 */
export async function exchange<T>(
  transport: Transport,
  url: string,
  init: RequestInit,
  signal: AbortSignal | undefined,
  consume: (response: Response, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const deadline = new Deadline(transport.timeoutMs, signal);
  let response: Response | undefined;
  try {
    response = await deadline.race(transport.fetch(url, {
      redirect: "manual",
      ...init,
      signal: deadline.signal,
    }));
    return await deadline.race(consume(response, deadline));
  } catch (error) {
    throw deadline.explain(error, url);
  } finally {
    deadline.dispose();
    if (response?.body && !response.bodyUsed && !response.body.locked) {
      await response.body.cancel().catch(() => {});
    }
  }
}

/**
 * One HTTP exchange with an idle deadline: redirects are never followed, the
 * caller's `AbortSignal` is honoured, and transport failures and silences
 * become {@linkcode RepoConnectionError}s, which the retry policy retries.
 *
 * @module
 */

import { RepoConnectionError, RepoProtocolError } from "../base/errors.ts";
import { whenAborted } from "../base/abort_callbacks.ts";
import { delay } from "../base/delay.ts";

/** What every request needs: the transport and how long it may take. */
export interface Transport {
  /** The `fetch` to call. */
  fetch: typeof fetch;
  /** Longest a request may go without progress, in milliseconds. */
  timeoutMs: number;
  /** Told the URL of each request that got an answer, whatever its status. */
  answered?(url: string): void;
}

/**
 * `fetch` (the global one when absent) called as a plain function: browsers
 * refuse a native `fetch` called as a method of another object, such as a
 * {@linkcode Transport} ("Illegal invocation").
 */
export function plainFetch(
  fetch: typeof globalThis.fetch = globalThis.fetch,
): typeof globalThis.fetch {
  return (input, init) => fetch(input, init);
}

/**
 * The longest wait `setTimeout` takes (2^31 - 1 ms, about 24.8 days); a
 * longer one fires at once, with a warning, in every runtime.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Body bytes that count as progress: a body that brings fewer in a whole
 * `timeoutMs` of waiting (a drip of a byte now and then) has stalled as
 * surely as a silent one, and is ended like it.
 */
export const PROGRESS_STEP_BYTES = 1024;

/**
 * An abort signal that fires when the caller aborts or when no progress was
 * made for `timeoutMs` of waiting on what is raced through
 * {@linkcode Deadline.race}: the time a reader takes between two reads of a
 * body is its own, not the server's. Progress is an answer's headers, or
 * {@linkcode PROGRESS_STEP_BYTES} of its body.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #forgetOuter: () => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer under way fires. */
  #firesAt = 0;
  /** Time spent waiting since the last progress, before the wait under way. */
  #waited = 0;
  /** When the wait under way began; `undefined` while nothing is raced. */
  #waitingSince: number | undefined;
  /** Body bytes since the last progress. */
  #trickled = 0;
  #timedOut = false;
  /** Promises being raced now. */
  #racing = 0;

  /**
   * Starts the clock.
   * @param timeoutMs longest wait without progress
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

  /**
   * Records progress, which restarts the clock: an answer's headers (no
   * argument), or `bytes` of its body once they add up to
   * {@linkcode PROGRESS_STEP_BYTES} since the clock last started.
   */
  rearm(bytes?: number): void {
    if (bytes !== undefined) {
      this.#trickled += bytes;
      if (this.#trickled < PROGRESS_STEP_BYTES) return;
    }
    this.#trickled = 0;
    this.#waited = 0;
    if (this.#waitingSince !== undefined) {
      this.#waitingSince = performance.now();
    }
  }

  /** Waiting time since the last progress. */
  #idle(): number {
    const since = this.#waitingSince;
    return this.#waited + (since === undefined ? 0 : performance.now() - since);
  }

  /**
   * One timer per stretch: when it fires early, it waits out the rest. A
   * timer cannot wait longer than {@linkcode LONGEST_TIMER_MS}: a longer
   * `timeoutMs` (`Infinity`) is waited out in such stretches.
   */
  #arm(ms: number): void {
    const wait = Math.min(ms, LONGEST_TIMER_MS);
    this.#firesAt = performance.now() + wait;
    this.#timer = setTimeout(() => {
      const left = this.timeoutMs - this.#idle();
      if (left > 0) {
        return this.#arm(this.#racing === 0 ? this.timeoutMs : left);
      }
      this.#timedOut = true;
      this.#controller.abort();
    }, wait);
  }

  /**
   * `promise`, or its rejection with the abort reason as soon as time runs
   * out or the caller aborts, whichever comes first: a body read on an
   * aborted request does not always end by itself. The clock runs while a
   * race is under way.
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const signal = this.#controller.signal;
    if (signal.aborted) {
      promise.catch(() => {});
      return Promise.reject(signal.reason);
    }
    if (this.#racing++ === 0) this.#startWaiting();
    return new Promise<T>((resolve, reject) => {
      // This request's own signal: one listener here, no fan-out needed.
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolve, reject).finally(() => {
        if (--this.#racing === 0) {
          this.#waited = this.#idle();
          this.#waitingSince = undefined;
        }
        signal.removeEventListener("abort", onAbort);
      });
    });
  }

  /**
   * Starts a wait. Time waited before a reader's pause still counts, so the
   * timer set for a whole stretch during the pause may fire too late: then
   * it is set anew.
   */
  #startWaiting(): void {
    const now = performance.now();
    this.#waitingSince = now;
    const left = this.timeoutMs - this.#waited;
    if (this.#firesAt > now + left) {
      clearTimeout(this.#timer);
      this.#arm(left);
    }
  }

  /**
   * `transport.fetch(url, init)` with this deadline's signal, raced
   * against it. When the race is lost the request is aborted, and this
   * waits for its `fetch` to settle (at most another `timeoutMs`, for a
   * transport that ignores aborts) before it rejects: until then the
   * connection may still be open at the server, and what waits for the
   * request to end (its HEAD slot, its retry) must wait for that too.
   */
  async fetch(
    transport: Transport,
    url: string,
    init: RequestInit,
  ): Promise<Response> {
    const fetching = transport.fetch(url, { ...init, signal: this.signal });
    try {
      const response = await this.race(fetching);
      transport.answered?.(url);
      return response;
    } catch (error) {
      await settledWithin(fetching, this.timeoutMs);
      throw error;
    }
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
      const reason = this.#trickled === 0
        ? `nothing received for ${this.timeoutMs} ms`
        : `only ${this.#trickled} bytes received in ${this.timeoutMs} ms`;
      return new RepoConnectionError(url, reason, { cause: error });
    }
    if (isTransportFailure(error)) {
      return new RepoConnectionError(url, failureText(error), { cause: error });
    }
    return error;
  }
}

/**
 * Whether `fetch` (or a body read) failed for want of a connection: a
 * `TypeError`, as the standard says, or a plain `Error` with a string
 * `code` (`ECONNRESET`, `ConnectionRefused`), as Bun before 1.4 throws.
 */
function isTransportFailure(error: unknown): error is Error {
  return error instanceof TypeError ||
    (error instanceof Error && error.constructor === Error &&
      typeof (error as { code?: unknown }).code === "string");
}

/** Resolves once `promise` settles, or after `ms` if it has not by then. */
async function settledWithin(
  promise: Promise<unknown>,
  ms: number,
): Promise<void> {
  const settled = new AbortController();
  const end = () => settled.abort();
  await Promise.race([
    promise.then(end, end),
    delay(ms, settled.signal).catch(() => {}),
  ]);
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
 * The longest answer read as text: V8 cannot hold a string of 512 MiB, and
 * no JSON answer of the repository comes near (a whole listing of a million
 * files is about 430 MiB; newer installations send it in pages).
 */
const MAX_TEXT_BYTES = 500 * 1024 * 1024;

/**
 * The body of `response` as text, each chunk that arrives restarting
 * `deadline`: a long answer over a slow link is read for as long as it keeps
 * coming, as content is. An answer over 500 MiB is a
 * {@linkcode RepoProtocolError}.
 */
export async function bodyText(
  response: Response,
  deadline: Deadline,
): Promise<string> {
  if (response.body === null) return "";
  const decoder = new TextDecoder();
  let text = "";
  let length = 0;
  for await (const chunk of response.body) {
    deadline.rearm(chunk.byteLength);
    length += chunk.byteLength;
    if (length > MAX_TEXT_BYTES) {
      throw new RepoProtocolError(
        `the answer goes on past ${
          MAX_TEXT_BYTES / 1024 ** 2
        } MiB, more than a JSON answer is read to`,
        response.url,
      );
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Sends one request (redirects not followed, unless `init.redirect` says
 * so) and hands the response to `consume` while the deadline runs; an
 * unread body is cancelled after.
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
    response = await deadline.fetch(transport, url, {
      redirect: "manual",
      ...init,
    });
    deadline.rearm();
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

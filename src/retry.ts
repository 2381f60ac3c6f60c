/**
 * The retry policy: which failures are worth another attempt, and how long
 * to wait before it. Every request of repo-fs goes through
 * {@linkcode retrying}.
 *
 * @module
 */

import type { RetryOptions } from "./types.ts";

const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Whether an HTTP status is transient (rate limit or gateway trouble).
 *
 * @example
 * ```ts
 * import { isRetryableStatus } from "./retry.ts";
 * isRetryableStatus(429); // true
 * isRetryableStatus(404); // false
 * ```
 */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * A failure that another attempt may cure. `final` is what the caller sees
 * when the attempts run out.
 *
 * @example
 * ```ts
 * import { TransientError } from "./retry.ts";
 * const e = new TransientError(new Error("HTTP 429"), "2");
 * console.log(e.retryAfter); // "2"
 * ```
 */
export class TransientError extends Error {
  /**
   * @param final the error to raise once retries are exhausted
   * @param retryAfter the server's `Retry-After` header, if it sent one
   */
  constructor(readonly final: Error, readonly retryAfter?: string | null) {
    super(final.message);
    this.name = "TransientError";
  }
}

/**
 * Exponential backoff with full jitter, bounded, honouring `Retry-After`.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "./retry.ts";
 * const policy = new RetryPolicy({ retries: 3, baseDelayMs: 100 });
 * policy.delayMs(0, "2"); // 2000: the server's wish wins
 * policy.delayMs(2, null) <= 400; // true
 * ```
 */
export class RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First backoff step. */
  readonly baseDelayMs: number;
  /** Longest single wait. */
  readonly maxDelayMs: number;

  /** @param options overrides of the defaults (5 retries, 250 ms, 30 s) */
  constructor(options: RetryOptions = {}) {
    this.retries = options.retries ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    for (const [name, value] of Object.entries(this)) {
      if (!Number.isFinite(value) || value < 0) {
        throw new TypeError(
          `retry.${name} must be a number >= 0, got ${value}`,
        );
      }
    }
  }

  /** How long to wait before retry number `attempt + 1`. */
  delayMs(attempt: number, retryAfter: string | null | undefined): number {
    const asked = parseRetryAfter(retryAfter);
    if (asked !== undefined) return Math.min(asked, this.maxDelayMs);
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** attempt);
    return Math.random() * ceiling;
  }

  /** The plain-object form, for transfer to a worker. */
  toJSON(): Required<RetryOptions> {
    const { retries, baseDelayMs, maxDelayMs } = this;
    return { retries, baseDelayMs, maxDelayMs };
  }
}

/**
 * Runs `attempt` until it succeeds, throws something other than a
 * {@linkcode TransientError}, or the policy's retries run out.
 *
 * @example
 * ```ts
 * import { RetryPolicy, retrying } from "./retry.ts";
 * const answer = await retrying(new RetryPolicy(), undefined, () => Promise.resolve(1));
 * console.log(answer); // 1
 * ```
 */
export async function retrying<T>(
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let done = 0;; done++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientError)) throw error;
      if (done >= policy.retries) throw error.final;
      await sleep(policy.delayMs(done, error.retryAfter), signal);
    }
  }
}

function parseRetryAfter(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

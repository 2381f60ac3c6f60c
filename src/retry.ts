/**
 * The retry policy: which failures are worth another attempt
 * ({@linkcode isRetriable}), and how long to wait before it. Every request
 * of repo-fs goes through {@linkcode retrying}.
 *
 * @module
 */

import { delay } from "./delay.ts";
import { RepoConnectionError, RepoHttpError } from "./errors.ts";
import type { RetryOptions } from "./types.ts";

/** Rate limits and server or gateway trouble; S3 asks for 500 to be retried too. */
const RETRIABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * The one retry decision: a connection that failed, dropped or went quiet,
 * or an answer with a transient status (429, 500, 502, 503, 504).
 *
 * @example
 * ```ts
 * import { isRetriable } from "./retry.ts";
 * import { RepoHttpError } from "./errors.ts";
 * isRetriable(new RepoHttpError(429, "https://r.example/api")); // true
 * isRetriable(new RepoHttpError(404, "https://r.example/api")); // false
 * ```
 */
export function isRetriable(error: unknown): boolean {
  return error instanceof RepoConnectionError ||
    (error instanceof RepoHttpError && RETRIABLE_STATUSES.has(error.status));
}

/**
 * Exponential backoff with full jitter, bounded, honouring `Retry-After`.
 *
 * @example
 * ```ts
 * import { RetryPolicy } from "./retry.ts";
 * import { equal, ok } from "node:assert/strict";
 * const policy = new RetryPolicy({ retries: 3, baseDelayMs: 100 });
 * equal(policy.delayMs(0, "2"), 2000); // the server's wish wins
 * ok(policy.delayMs(2, undefined) <= 400);
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
  delayMs(attempt: number, retryAfter: string | undefined): number {
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
 * Runs `attempt` until it succeeds, fails in a way {@linkcode isRetriable}
 * refuses, or the policy's retries run out; the last error is thrown as it
 * is. An abort of `signal` ends the wait between attempts at once.
 *
 * @example
 * ```ts
 * import { RetryPolicy, retrying } from "./retry.ts";
 * import { equal } from "node:assert/strict";
 * equal(await retrying(new RetryPolicy(), undefined, () => Promise.resolve(1)), 1);
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
      if (signal?.aborted) throw signal.reason;
      if (!isRetriable(error) || done >= policy.retries) throw error;
      const retryAfter = error instanceof RepoHttpError
        ? error.retryAfter
        : undefined;
      await delay(policy.delayMs(done, retryAfter), signal);
    }
  }
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * The retry policy: which failures are worth another attempt
 * ({@linkcode isRetriable}), and how long to wait before it. Every request
 * of repo-fs goes through {@linkcode retrying}.
 *
 * @module
 */

import { delay } from "../base/delay.ts";
import { RepoConnectionError, RepoHttpError } from "../base/errors.ts";
import type { Logger, RetryOptions } from "../base/types.ts";
import { explainConnection, isPermanent } from "./connection_failure.ts";

/** Rate limits and server or gateway trouble; S3 asks for 500 to be retried too. */
const RETRIABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

/**
 * The one retry decision: a connection that failed, dropped or went quiet,
 * or an answer with a transient status (429, 500, 502, 503, 504).
 */
export function isRetriable(error: unknown): boolean {
  return error instanceof RepoConnectionError ||
    (error instanceof RepoHttpError && RETRIABLE_STATUSES.has(error.status));
}

/** Exponential backoff with full jitter, bounded, honouring `Retry-After`. */
export class RetryPolicy {
  /** Attempts after the first. */
  readonly retries: number;
  /** First backoff step. */
  readonly baseDelayMs: number;
  /** Longest single wait. */
  readonly maxDelayMs: number;
  #backoffs = 0;
  /** Origins that answered a request under this policy (any status). */
  readonly #answered = new Set<string>();
  /** Told of each retry and its wait as it happens. */
  readonly #logger?: Logger;

  /**
   * @param options overrides of the defaults (5 retries, 250 ms, 30 s)
   * @param logger told of each retry and its wait
   */
  constructor(options: RetryOptions = {}, logger?: Logger) {
    this.retries = options.retries ?? 5;
    this.baseDelayMs = options.baseDelayMs ?? 250;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.#logger = logger;
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

  /**
   * Backoffs taken so far under this policy, by any request: the signal of
   * rate limits and server trouble for whoever paces the requests.
   */
  get backoffs(): number {
    return this.#backoffs;
  }

  /** Counts one backoff; {@linkcode retrying} calls it before each wait. */
  countBackoff(): void {
    this.#backoffs++;
  }

  /** Notes that `url`'s origin answered: a refusal from it later may pass. */
  noteAnswered(url: string): void {
    this.#answered.add(originOf(url));
  }

  /** Whether `url`'s origin has answered a request under this policy. */
  hasAnswered(url: string): boolean {
    return this.#answered.has(originOf(url));
  }

  /** Logs that retry number `attempt + 1` comes after `waitMs`, and why. */
  noteRetry(attempt: number, waitMs: number, error: unknown): void {
    this.#logger?.info(
      `retry ${attempt + 1} of ${this.retries} in ${
        (waitMs / 1000).toFixed(1)
      } s after: ${error instanceof Error ? error.message : String(error)}`,
    );
  }

  /** The plain-object form, for transfer to a worker. */
  toJSON(): Required<RetryOptions> {
    const { retries, baseDelayMs, maxDelayMs } = this;
    return { retries, baseDelayMs, maxDelayMs };
  }
}

/**
 * What the attempts at one request cost before its last, retriable failure
 * was given up on.
 */
export interface RetryCost {
  /** Attempts made, the first included. */
  attempts: number;
  /** Backoff waited between them in total, in milliseconds. */
  waitedMs: number;
}

/**
 * Runs `attempt` until it succeeds, fails in a way {@linkcode isRetriable}
 * refuses, or the policy's retries run out. The last error is thrown as it
 * is, or, when retries ran out, as `giveUp` tells it with what the attempts
 * cost. A connection failure no retry cures (see `connection_failure.ts`)
 * ends it at once, in one line. An abort of `signal` ends the wait between
 * attempts at once.
 * `spent` counts failed attempts made before this call for the same work,
 * as when a read resumes after an answer that brought almost nothing: they
 * use up retries and lengthen the waits as if made here.
 */
export async function retrying<T>(
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
  giveUp?: (error: unknown, cost: RetryCost) => unknown,
  spent = 0,
): Promise<T> {
  let waitedMs = 0;
  for (let done = spent;; done++) {
    try {
      return await attempt();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!isRetriable(error)) throw error;
      if (
        isPermanent(error, done - spent + 1, (url) => policy.hasAnswered(url))
      ) {
        throw explainConnection(error, done - spent + 1);
      }
      if (done >= policy.retries) {
        const cost = { attempts: done + 1, waitedMs };
        const given = explainConnection(error, done + 1);
        throw given !== error ? given : giveUp ? giveUp(error, cost) : error;
      }
      const retryAfter = error instanceof RepoHttpError
        ? error.retryAfter
        : undefined;
      const wait = policy.delayMs(done, retryAfter);
      waitedMs += wait;
      policy.noteRetry(done, wait, error);
      policy.countBackoff();
      await delay(wait, signal);
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

function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

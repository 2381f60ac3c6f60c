/**
 * The error of a coordinator that cannot be used, in a module of its own so
 * that a pool can revive it without loading the coordinator.
 *
 * @module
 */

/**
 * The coordinator cannot be used: unreachable, gone mid-run, too slow, or
 * not a Redis server. Reads that need a content URL fail with it rather than
 * send HEADs outside the fleet's budget. `coordinator` is the URL without
 * its password.
 *
 * @example
 * ```ts
 * import { CoordinatorError } from "@x/repo-fs/fleet";
 * import { strictEqual } from "node:assert/strict";
 * const error = new CoordinatorError("redis://:secret@10.0.0.5:6379", "connection refused");
 * strictEqual(error.coordinator, "redis://10.0.0.5:6379");
 * strictEqual(
 *   error.message,
 *   "The coordinator redis://10.0.0.5:6379 cannot be used (connection refused); no content URL is resolved without it, so that the fleet's HEAD budget holds",
 * );
 * ```
 */
export class CoordinatorError extends Error {
  /** The coordinator's URL, without user name or password. */
  readonly coordinator: string;
  /**
   * Makes the error for one coordinator and what went wrong with it.
   * @param url the coordinator's URL; its credentials are not shown
   * @param reason what went wrong
   * @param options the cause
   */
  constructor(url: string, reason: string, options: { cause?: unknown } = {}) {
    const shown = withoutCredentials(url);
    super(
      `The coordinator ${shown} cannot be used (${reason}); no content URL is resolved without it, so that the fleet's HEAD budget holds`,
      options,
    );
    this.name = "CoordinatorError";
    this.coordinator = shown;
  }
}

/** `url` with any user name and password left out. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href.replace(/\/$/, "");
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//");
  }
}

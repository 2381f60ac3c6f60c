/**
 * Fault knobs of the emulator and the bookkeeping that spends them.
 *
 * @module
 */

import type { Respond } from "./respond_hook.ts";

/**
 * Answer a number of matching requests with an error status.
 *
 * @example
 * ```ts
 * import { type FailureRule } from "@x/repo-fs/emulator";
 * // Two rate-limited HEADs, without Retry-After, as the repository does.
 * const burst: FailureRule = { target: "head", status: 429, count: 2 };
 * ```
 */
export interface FailureRule {
  /**
   * Which requests: `repo` every repository request; `listing` the dataset
   * and version endpoints (file pages and the list of versions included); `head` HEADs on the access endpoint; `content`
   * store GETs and GETs on the access endpoint; `store` every store request;
   * `any` everything.
   */
  target: "repo" | "listing" | "head" | "content" | "store" | "any";
  /** The status to answer with, such as 429, 500, 502, 503, 504 or 403. */
  status: number;
  /** How many matching requests get it; the rule is dropped when it reaches 0. */
  count: number;
  /** Sent as `Retry-After` when set. */
  retryAfter?: string;
  /** Only requests whose URL path includes this. */
  pathIncludes?: string;
  /**
   * When true the answer's message is `Bad API key <key>`, quoting the
   * token header the request carried, as some installations do.
   */
  echoToken?: boolean;
  /**
   * When true the answer's message quotes the request's URL, query string
   * included, as a proxy's error page may: a pre-signed URL's signature.
   */
  echoUrl?: boolean;
}

/**
 * The fault knobs. They are read on every request, so changing a field of
 * `emulator.faults` takes effect at once.
 *
 * @example
 * ```ts
 * import { type EmulatorFaults } from "@x/repo-fs/emulator";
 * const faults: EmulatorFaults = {
 *   latencyMs: 0,
 *   redirect: true,
 *   ignoreRange: false,
 *   rangeCap: 0,
 *   breakAfter: 0,
 *   failures: [{ target: "content", status: 503, count: 1, retryAfter: "1" }],
 *   truncate: 1,
 *   drop: 0,
 *   shortBody: 0,
 *   malformedJson: 0,
 *   location: undefined,
 *   redirectStatus: 307,
 *   portalPage: 0,
 *   stall: 0,
 *   trickle: { bytes: 64, everyMs: 10 },
 *   headDelayMs: 0,
 *   shiftContentRange: 0,
 *   pageOverlap: 0,
 *   pageTotalDrift: 0,
 *   unsaidLength: false,
 *   unsaidTotal: false,
 *   gzipBody: 0,
 *   gzipLabel: "gzip",
 *   listingTrickle: null,
 * };
 * ```
 */
export interface EmulatorFaults {
  /**
   * Delay in milliseconds before answering any request on either origin.
   * Like every wait of the emulator it ends when the client goes away or the
   * emulator closes.
   */
  latencyMs: number;
  /** True: the access endpoint redirects to the store. False: it serves the bytes itself. */
  redirect: boolean;
  /** The status the access endpoint redirects with, such as 301, 302, 303, 307 or 308. */
  redirectStatus: number;
  /**
   * `undefined`: redirects point to a signed store URL. A string: every
   * redirect carries it verbatim as `Location`, however malformed. `null`:
   * redirects carry no `Location` at all.
   */
  location: string | null | undefined;
  /** Extra delay in milliseconds before a HEAD on the access endpoint is answered, after `latencyMs`. */
  headDelayMs: number;
  /** Content answers 200 with the full body even when a Range was asked. */
  ignoreRange: boolean;
  /** When above 0, a 206 answer carries at most this many bytes, as some servers cap ranges. */
  rangeCap: number;
  /**
   * When above 0, every content answer to a GET sends at most this many
   * body bytes, then drops the connection, as a link that breaks off
   * every answer early.
   */
  breakAfter: number;
  /** Checked in order; the first matching rule answers the request. */
  failures: FailureRule[];
  /** The next n content answers send their headers and about half the body, then drop the connection. */
  truncate: number;
  /** The next n content answers send their headers, then drop the connection before any body byte. */
  drop: number;
  /** The next n 206 answers promise the asked range but send fewer bytes, with a matching `Content-Length`. */
  shortBody: number;
  /** The next n JSON answers are not valid JSON (status 200). */
  malformedJson: number;
  /**
   * The next n content answers to GETs are a login page instead of the file:
   * 200, `text/html`, `<html>login</html>`, whatever range was asked.
   */
  portalPage: number;
  /**
   * The next n content answers send their headers and about half the body,
   * then nothing more, keeping the connection open until the client goes
   * away or the emulator closes.
   */
  stall: number;
  /**
   * While set, content bodies are sent `bytes` bytes at a time, `everyMs`
   * milliseconds apart, until done, the client goes away or the emulator
   * closes.
   */
  trickle: { bytes: number; everyMs: number } | null;
  /**
   * The next n 206 answers to GETs carry a `Content-Range` shifted up by one
   * byte (same length and total, same body).
   */
  shiftContentRange: number;
  /**
   * The next n pages of the paged file list that do not start at offset 0
   * start one file early, repeating the last file of the page before, as
   * when a file is renamed to the front of the list between pages.
   */
  pageOverlap: number;
  /**
   * The next n pages of the paged file list that do not start at offset 0
   * say `totalCount` is one more than it is, as when a file is added
   * between pages.
   */
  pageTotalDrift: number;
  /**
   * While true, content answers carry no `Content-Length`: their bodies are
   * streamed (chunked), as servers that generate them do.
   */
  unsaidLength: boolean;
  /**
   * While true, content answers do not say the file's size nor version, as
   * a server that generates the file while it sends it: a 206 carries
   * `Content-Range: bytes a-b/*`, a 416 no `Content-Range`, and no answer
   * an `ETag`.
   */
  unsaidTotal: boolean;
  /**
   * The next n content answers to GETs are the whole file gzip-compressed,
   * 200 with `Content-Encoding: gzip`, whatever range was asked.
   */
  gzipBody: number;
  /**
   * The `Content-Encoding` the `gzipBody` answers carry: `gzip`, or a name
   * for the same bytes that a client may not decode, such as `x-gzip`.
   */
  gzipLabel: string;
  /** As `trickle`, for the repository's JSON answers: listings and collection contents. */
  listingTrickle: { bytes: number; everyMs: number } | null;
  /**
   * Sees every request of both servers first: answers it with a `Response`
   * of its own, or with a changed `info.next()`, or with `undefined` for the
   * emulator's own answer. A fault that no knob describes lives here, in
   * the test that needs it.
   */
  respond?: Respond;
}

/** The one-shot knobs that count down. */
export type CountdownFault =
  | "truncate"
  | "drop"
  | "shortBody"
  | "malformedJson"
  | "portalPage"
  | "stall"
  | "shiftContentRange"
  | "pageOverlap"
  | "pageTotalDrift"
  | "gzipBody";

/**
 * The knobs with their defaults, overridden by `initial`. The failure rules
 * are copied so that spending them leaves the caller's array alone.
 */
export function createFaults(
  initial: Partial<EmulatorFaults> = {},
): EmulatorFaults {
  return {
    latencyMs: 0,
    redirect: true,
    redirectStatus: 303,
    location: undefined,
    headDelayMs: 0,
    ignoreRange: false,
    rangeCap: 0,
    breakAfter: 0,
    truncate: 0,
    drop: 0,
    shortBody: 0,
    malformedJson: 0,
    portalPage: 0,
    stall: 0,
    trickle: null,
    shiftContentRange: 0,
    pageOverlap: 0,
    pageTotalDrift: 0,
    unsaidLength: false,
    unsaidTotal: false,
    gzipBody: 0,
    gzipLabel: "gzip",
    listingTrickle: null,
    ...initial,
    failures: (initial.failures ?? []).map((rule) => ({ ...rule })),
  };
}

/**
 * Spends one use of the first rule that matches a request and returns it;
 * `undefined` when none matches. `targets` are the rule targets the request
 * falls under (`any` is implied).
 */
export function takeFailure(
  faults: EmulatorFaults,
  targets: readonly FailureRule["target"][],
  path: string,
): FailureRule | undefined {
  const rules = faults.failures;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (rule.count <= 0) continue;
    if (rule.target !== "any" && !targets.includes(rule.target)) continue;
    if (rule.pathIncludes !== undefined && !path.includes(rule.pathIncludes)) {
      continue;
    }
    rule.count--;
    if (rule.count === 0) rules.splice(i, 1);
    return rule;
  }
  return undefined;
}

/** Spends one use of a countdown knob; true when it had one left. */
export function takeCountdown(
  faults: EmulatorFaults,
  knob: CountdownFault,
): boolean {
  if (faults[knob] <= 0) return false;
  faults[knob]--;
  return true;
}

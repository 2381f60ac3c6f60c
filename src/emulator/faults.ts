/**
 * The emulator's faults: the link's latency, redirect or not, and one list
 * of rules that say which requests get what answer. A fault that no rule
 * describes lives in the test that needs it, as a `respond` hook.
 *
 * @module
 */

import type { Respond } from "./respond_hook.ts";

/**
 * Which requests a rule is for: `listing` the dataset, version and file-list
 * endpoints; `collection` collection contents; `head` HEADs on the access
 * endpoint; `content` GETs of file bytes (store or access endpoint); `repo`
 * every repository request; `store` every store request; `any` everything.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type FaultRoute, startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const route: FaultRoute = "listing";
 * await using emu = await startEmulator({
 *   files: { "a.txt": "hello" },
 *   faults: { rules: [{ route, status: 503, times: 1 }] },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry: { baseDelayMs: 1 } });
 * deepStrictEqual(await fs.find(""), ["a.txt"]);
 * strictEqual(emu.counters.listingCalls, 2); // a 503, then the listing
 * ```
 */
export type FaultRoute =
  | "listing"
  | "collection"
  | "head"
  | "content"
  | "repo"
  | "store"
  | "any";

/**
 * One fault: which requests it takes (all of `route`, `file`, `method`,
 * `attempt`, `pathIncludes` that are given must hold) and what their answer
 * becomes. A rule with an error `status` (400 and up) and no `body` answers
 * with the emulator's own error for it (the repository's JSON envelope, the
 * store's S3 XML); any other rule reshapes the emulator's own answer.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type FaultRule, startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * // Two rate-limited HEADs, then a content answer cut after 3 bytes.
 * const rules: FaultRule[] = [
 *   { route: "head", status: 429, times: 2 },
 *   { route: "content", cutAfter: 3 },
 * ];
 * await using emu = await startEmulator({
 *   files: { "a.txt": "hello world" },
 *   faults: { rules },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry: { baseDelayMs: 1 } });
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello world");
 * strictEqual(emu.counters.heads, 3);
 * strictEqual(emu.counters.storeGets, 2); // resumed after the cut
 * ```
 */
export interface FaultRule {
  /** Which requests; default `any`. */
  route?: FaultRoute;
  /** Only requests for this file (a dataset path of the main version). */
  file?: string;
  /** Only requests with this method, such as `GET` or `HEAD`. */
  method?: string;
  /** Only the n-th request (1, 2, …) of its route and file. */
  attempt?: number;
  /** Only requests whose URL path includes this. */
  pathIncludes?: string;
  /** How many matching requests it takes; default 1, `Infinity` for all. */
  times?: number;
  /** Milliseconds to wait before answering (ends when the client goes away). */
  delayMs?: number;
  /** The answer's status. */
  status?: number;
  /** The error message of an error answer; a function may quote the request. */
  message?: string | ((request: Request) => string);
  /** Headers to set on the answer; `null` removes one (`content-length`: streamed). */
  headers?: Record<string, string | null>;
  /** The answer's body instead of the emulator's. */
  body?: string | Uint8Array;
  /**
   * Body bytes sent before the connection drops (`"half"`: half the body),
   * with the `Content-Length` of the whole.
   */
  cutAfter?: number | "half";
  /** Body bytes sent before the body stops and the connection stays open. */
  stallAfter?: number | "half";
  /** The body sent `bytes` at a time, `everyMs` apart; read live, so clearing it speeds a body up. */
  trickle?: { bytes: number; everyMs: number };
}

/**
 * The live faults. They are read on every request, so a change to
 * `emulator.faults` (a new rule pushed, `latencyMs` set) takes effect at
 * once.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * emu.faults.redirect = false; // the repository serves the bytes itself
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
 * strictEqual(emu.counters.storeGets, 0);
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
  /** Checked in order; the first rule that matches a request shapes its answer. */
  rules: FaultRule[];
  /**
   * Sees every request of both servers first: answers it with a `Response`
   * of its own, or with a changed `info.next()`, or with `undefined` for the
   * emulator's own answer.
   */
  respond?: Respond;
}

/** The faults with their defaults, overridden by `initial`; the rules are copied. */
export function createFaults(
  initial: Partial<EmulatorFaults> = {},
): EmulatorFaults {
  return {
    latencyMs: 0,
    redirect: true,
    ...initial,
    rules: (initial.rules ?? []).map((rule) => ({ ...rule })),
  };
}

/** What a request is, for matching rules. */
export interface FaultTarget {
  /** The routes the request falls under (`any` is implied). */
  routes: readonly FaultRoute[];
  /** The request's method. */
  method: string;
  /** Its URL path. */
  path: string;
  /** The file asked for, by dataset path. */
  file?: string;
  /** Which request of its route and file this is, from 1. */
  attempt: number;
}

/** Spends one use of the first rule that matches; `undefined` when none does. */
export function takeRule(
  faults: EmulatorFaults,
  target: FaultTarget,
): FaultRule | undefined {
  const rules = faults.rules;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (!matches(rule, target)) continue;
    const times = (rule.times ?? 1) - 1;
    if (times <= 0) rules.splice(i, 1);
    else rule.times = times;
    return rule;
  }
  return undefined;
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  const route = rule.route ?? "any";
  return (route === "any" || target.routes.includes(route)) &&
    (rule.file === undefined || rule.file === target.file) &&
    (rule.method === undefined || rule.method === target.method) &&
    (rule.attempt === undefined || rule.attempt === target.attempt) &&
    (rule.pathIncludes === undefined ||
      target.path.includes(rule.pathIncludes));
}

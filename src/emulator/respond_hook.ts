/**
 * What each request is (its route, file and attempt), and the emulator's
 * general fault seam: a test's own `respond` function sees every request
 * first and may answer it, change the emulator's answer, or leave it alone.
 *
 * @module
 */

import { goneSignal } from "./waits.ts";

/**
 * What a request is, as a fault is aimed at it.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type RequestInfo, startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * const seen: string[] = [];
 * const respond = (_request: Request, info: RequestInfo) => {
 *   seen.push(`${info.origin} ${info.route} ${info.attempt}`);
 *   return undefined; // the emulator's own answer
 * };
 * await using emu = await startEmulator({ files: { "a.txt": "hello" }, faults: { respond } });
 * await new RepoFs({ host: emu.host, pid: emu.pid }).catFile("a.txt");
 * deepStrictEqual(seen, ["repository listing 1", "repository head 1", "store content 1"]);
 * ```
 */
export interface RequestInfo {
  /** Which of the emulator's two servers got it. */
  origin: "repository" | "store";
  /**
   * `listing`: the dataset, version and file-list endpoints; `head`: a HEAD
   * on the access endpoint; `content`: a GET on the access endpoint or on
   * the store; `collection`: collection contents; `other`: anything else.
   */
  route: "listing" | "head" | "content" | "collection" | "other";
  /** The file asked for, on `head` and `content` routes. */
  fileId?: number;
  /** 1 for the first request of this origin, route and file, then 2, … */
  attempt: number;
  /** Aborts when the client goes away or the emulator closes: end endless bodies on it. */
  signal: AbortSignal;
  /**
   * The emulator's own answer (counted, with its fault rules), to pass on
   * or change; given a request of its own (another `Range`, say), the
   * answer to that one, counted as this request.
   */
  next(request?: Request): Promise<Response>;
}

/**
 * A test's answer to a request: a `Response` to send, or `undefined` for
 * the emulator's own answer.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type Respond, startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // The first HEAD is refused with a 503 of the test's own.
 * const attempts: number[] = [];
 * const respond: Respond = (_request, info) => {
 *   if (info.route !== "head") return undefined;
 *   attempts.push(info.attempt);
 *   return info.attempt === 1 ? new Response("busy", { status: 503 }) : undefined;
 * };
 * await using emu = await startEmulator({ files: { "a.txt": "hello" }, faults: { respond } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry: { baseDelayMs: 1 } });
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
 * deepStrictEqual(attempts, [1, 2]); // retried
 * ```
 */
export type Respond = (
  request: Request,
  info: RequestInfo,
) => Response | undefined | Promise<Response | undefined>;

type Seen = Pick<RequestInfo, "origin" | "route" | "fileId" | "attempt">;

/** Classifies and counts every request once, so rules and hooks agree on its attempt. */
export class RequestLedger {
  readonly #attempts = new Map<string, number>();
  readonly #seen = new WeakMap<Request, Seen>();

  /** @param storedFileId the file a store path serves */
  constructor(
    readonly storedFileId: (pathname: string) => number | undefined,
  ) {}

  /** What `request` is, counted the first time it is asked. */
  of(origin: RequestInfo["origin"], request: Request): Seen {
    let seen = this.#seen.get(request);
    if (seen === undefined) {
      const { route, fileId } = classify(origin, request, this.storedFileId);
      const key = `${origin} ${route} ${fileId ?? ""}`;
      const attempt = (this.#attempts.get(key) ?? 0) + 1;
      this.#attempts.set(key, attempt);
      seen = { origin, route, fileId, attempt };
      this.#seen.set(request, seen);
    }
    return seen;
  }

  /** `substitute` stands for `original`: the same route, file and attempt. */
  alias(substitute: Request, original: Request): void {
    const seen = this.#seen.get(original);
    if (seen !== undefined) this.#seen.set(substitute, seen);
  }
}

/** Calls `respond()` (read live, so a test may set it at any time) before `handler`. */
export function withRespondHook(
  origin: RequestInfo["origin"],
  handler: (request: Request) => Promise<Response>,
  hook: { respond?: Respond },
  ledger: RequestLedger,
  closed: AbortSignal,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const seen = ledger.of(origin, request);
    const respond = hook.respond;
    if (respond === undefined) return await handler(request);
    const info: RequestInfo = {
      ...seen,
      signal: goneSignal(request, closed),
      next: (substitute = request) => {
        ledger.alias(substitute, request);
        return handler(substitute);
      },
    };
    return await respond(request, info) ?? await handler(request);
  };
}

function classify(
  origin: RequestInfo["origin"],
  request: Request,
  storedFileId: (pathname: string) => number | undefined,
): Pick<RequestInfo, "route" | "fileId"> {
  const { pathname } = new URL(request.url);
  if (origin === "store") {
    const fileId = storedFileId(pathname);
    return request.method === "GET"
      ? { route: "content", fileId }
      : { route: "other", fileId };
  }
  const access = /^\/api\/access\/datafile\/(\d+)\/?$/.exec(pathname);
  if (access) {
    const fileId = Number(access[1]);
    if (request.method === "HEAD") return { route: "head", fileId };
    if (request.method === "GET") return { route: "content", fileId };
  }
  if (/^\/api\/datasets\//.test(pathname)) return { route: "listing" };
  if (/\/contents\/?$/.test(pathname)) return { route: "collection" };
  return { route: "other" };
}

/**
 * The emulator's general fault seam: a test's own `respond` function sees
 * every request first and may answer it, change the emulator's answer, or
 * leave it alone.
 *
 * @module
 */

import { goneSignal } from "./waits.ts";

/** What a request is, as a fault is aimed at it. */
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
  /** The emulator's own answer (counted, with its faults), to pass on or change. */
  next(): Promise<Response>;
}

/**
 * A test's answer to a request: a `Response` to send, or `undefined` for
 * the emulator's own answer.
 */
export type Respond = (
  request: Request,
  info: RequestInfo,
) => Response | undefined | Promise<Response | undefined>;

/** Calls `respond()` (read live, so a test may set it at any time) before `handler`. */
export function withRespondHook(
  origin: RequestInfo["origin"],
  handler: (request: Request) => Promise<Response>,
  hook: { respond?: Respond },
  storedFileId: (pathname: string) => number | undefined,
  closed: AbortSignal,
): (request: Request) => Promise<Response> {
  const attempts = new Map<string, number>();
  return async (request) => {
    const respond = hook.respond;
    if (respond === undefined) return await handler(request);
    const { route, fileId } = classify(origin, request, storedFileId);
    const key = `${origin} ${route} ${fileId ?? ""}`;
    const attempt = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, attempt);
    const info: RequestInfo = {
      origin,
      route,
      fileId,
      attempt,
      signal: goneSignal(request, closed),
      next: () => handler(request),
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

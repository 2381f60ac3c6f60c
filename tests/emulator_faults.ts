/**
 * Faults that several tests stage and that no rule of the emulator says:
 * `respond` hooks built on the emulator's own answers (`info.next()`), and
 * the rules that stand for common server misbehaviour.
 */

import { gzipSync } from "node:zlib";
import type { FaultRule, RequestInfo, Respond } from "../emulator.ts";

/** `hooks` in turn: the first that answers a request answers it. */
export function firstOf(...hooks: Respond[]): Respond {
  return async (request, info) => {
    for (const hook of hooks) {
      const answer = await hook(request, info);
      if (answer !== undefined) return answer;
    }
    return undefined;
  };
}

/** `request` with its headers changed: `null` removes one. */
export function withHeaders(
  request: Request,
  changes: Record<string, string | null>,
): Request {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Request(request.url, { method: request.method, headers });
}

/** `response` with its headers changed (`null` removes one) and, if given, a new body. */
export async function reshaped(
  response: Response,
  changes: Record<string, string | null>,
  body?: Uint8Array<ArrayBuffer>,
): Promise<Response> {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  let bytes = body;
  if (bytes === undefined && response.body !== null) {
    bytes = new Uint8Array(await response.arrayBuffer());
  } else if (!response.bodyUsed) await response.body?.cancel();
  return new Response(bytes ?? null, { status: response.status, headers });
}

/** A hook that spends one of `times` uses each time `use()` says yes; `left` tells how many remain. */
export type CountedHook = Respond & { readonly left: number };

function counted(
  times: number,
  hook: (use: () => boolean) => Respond,
): CountedHook {
  let left = times;
  const respond = hook(() => left > 0 && left-- > 0);
  return Object.defineProperty(respond, "left", {
    get: () => left,
  }) as CountedHook;
}

const isContent = (info: RequestInfo) => info.route === "content";

/** Content GETs answered 200 with the whole file, whatever range was asked. */
export function ignoreRange(): Respond {
  return (request, info) =>
    isContent(info)
      ? info.next(withHeaders(request, { range: null }))
      : undefined;
}

/** Content GETs answered with at most `cap` bytes of the range asked, as some servers cap ranges. */
export function rangeCap(cap: number): Respond {
  return (request, info) => {
    const asked = /^bytes=(\d+)-(\d*)$/.exec(
      request.headers.get("range") ?? "",
    );
    if (!isContent(info) || asked === null) return undefined;
    const start = Number(asked[1]);
    const end = Math.min(
      asked[2] === "" ? Infinity : Number(asked[2]),
      start + cap - 1,
    );
    return info.next(withHeaders(request, { range: `bytes=${start}-${end}` }));
  };
}

/** The next `times` 206 answers promise the range asked but send half of it, with a matching `Content-Length`. */
export function shortBody(times = 1): CountedHook {
  return counted(times, (left) => async (_request, info) => {
    if (!isContent(info)) return undefined;
    const answer = await info.next();
    if (answer.status !== 206 || !left()) return answer;
    const bytes = new Uint8Array(await answer.arrayBuffer());
    const half = bytes.subarray(0, bytes.length >> 1);
    return reshaped(answer, { "content-length": String(half.length) }, half);
  });
}

/** The next `times` 206 answers carry a `Content-Range` shifted up by one byte. */
export function shiftContentRange(times = 1): CountedHook {
  return counted(times, (left) => async (_request, info) => {
    if (!isContent(info)) return undefined;
    const answer = await info.next();
    const range = /^bytes (\d+)-(\d+)\/(.*)$/.exec(
      answer.headers.get("content-range") ?? "",
    );
    if (answer.status !== 206 || range === null || !left()) return answer;
    const [, first, last, total] = range;
    return reshaped(answer, {
      "content-range": `bytes ${Number(first) + 1}-${
        Number(last) + 1
      }/${total}`,
    });
  });
}

/**
 * Content answers that do not say the file's size nor version, as a server
 * that generates the file as it sends it: `bytes a-b/*`, no `Content-Range`
 * on a 416, no `ETag`. `wholeFile`: the whole file whatever range was asked.
 */
export function unsaidTotal({ wholeFile = false } = {}): Respond {
  return async (request, info) => {
    if (!isContent(info)) return undefined;
    const answer = await info.next(
      wholeFile ? withHeaders(request, { range: null }) : request,
    );
    const range = answer.headers.get("content-range");
    return reshaped(answer, {
      etag: null,
      "content-range": range === null || answer.status === 416
        ? null
        : range.replace(/\/\d+$/, "/*"),
    });
  };
}

/**
 * The next `times` content GETs answered 200 with the whole file
 * gzip-compressed, labelled `label` (`gzip`, or a name for the same bytes
 * that a client may not decode, such as `x-gzip`), whatever range was asked.
 */
export function gzipBody(times = 1, label = "gzip"): CountedHook {
  return counted(times, (left) => async (request, info) => {
    if (!isContent(info) || !left()) return undefined;
    const whole = await info.next(withHeaders(request, { range: null }));
    const bytes = new Uint8Array(gzipSync(await whole.arrayBuffer()));
    return reshaped(whole, {
      "content-encoding": label,
      "content-length": String(bytes.length),
      etag: null,
      "accept-ranges": null,
    }, bytes);
  });
}

/** A captive portal's or proxy's login page instead of the file, for `times` content GETs. */
export function portalPage(times = 1): FaultRule {
  return {
    route: "content",
    times,
    status: 200,
    headers: {
      "content-type": "text/html",
      "content-range": null,
      "accept-ranges": null,
      etag: null,
    },
    body: "<html>login</html>",
  };
}

/** The next `times` JSON answers of the listing cut in half: not JSON. */
export function malformedJson(times = 1): FaultRule {
  return { route: "listing", times, status: 200, body: '{"status":"OK","da' };
}

/**
 * Every redirect of the access endpoint with `status` and, when given,
 * `location` as its `Location` (`null`: none).
 */
export function redirects(
  status: number,
  location?: string | null,
): FaultRule {
  return {
    pathIncludes: "/api/access/datafile/",
    times: Infinity,
    status,
    headers: location === undefined ? {} : { location },
  };
}

/**
 * File bytes as an HTTP answer: byte ranges and the body faults. Both the
 * object store and the no-redirect access endpoint answer through here.
 *
 * @module
 */

import { type EmulatorFaults, takeCountdown } from "./faults.ts";

/** An inclusive byte range. */
interface ByteRange {
  /** First byte. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/**
 * Reads a `Range` header against a body of `total` bytes: the range, `null`
 * when there is none or it is not a single `bytes=` range (served whole, as
 * HTTP says), or `"unsatisfiable"` (416).
 */
function parseRange(
  header: string | null,
  total: number,
): ByteRange | "unsatisfiable" | null {
  const match = header === null
    ? null
    : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || total === 0) return "unsatisfiable";
    return { start: Math.max(0, total - suffix), end: total - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? Infinity : Number(match[2]);
  if (end < start) return null;
  if (start >= total) return "unsatisfiable";
  return { start, end: Math.min(end, total - 1) };
}

/**
 * The answer to a GET or HEAD for file bytes, with the body faults applied,
 * and how many body bytes it sends.
 *
 * @example
 * ```ts
 * import { contentReply } from "./content.ts";
 * import { createFaults } from "./faults.ts";
 * const request = new Request("http://x/", { headers: { range: "bytes=1-2" } });
 * const { response, sent } = contentReply(request, new Uint8Array([1, 2, 3, 4]), "application/octet-stream", createFaults());
 * response.status; // 206
 * sent; // 2
 * await response.body?.cancel();
 * ```
 */
export function contentReply(
  request: Request,
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
  faults: EmulatorFaults,
): { response: Response; sent: number } {
  const total = bytes.length;
  const range = faults.ignoreRange
    ? null
    : parseRange(request.headers.get("range"), total);
  if (range && range !== "unsatisfiable" && faults.rangeCap > 0) {
    range.end = Math.min(range.end, range.start + faults.rangeCap - 1);
  }
  if (range === "unsatisfiable") {
    return {
      response: new Response(null, {
        status: 416,
        headers: { "content-range": `bytes */${total}` },
      }),
      sent: 0,
    };
  }
  const headers = new Headers({
    "content-type": contentType,
    "accept-ranges": "bytes",
  });
  if (range) {
    headers.set("content-range", `bytes ${range.start}-${range.end}/${total}`);
  }
  const status = range ? 206 : 200;
  const body = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  headers.set("content-length", String(body.length));
  if (request.method === "HEAD") {
    return { response: new Response(null, { status, headers }), sent: 0 };
  }
  if (takeCountdown(faults, "drop")) return cutShort(body, 0, status, headers);
  if (takeCountdown(faults, "truncate")) {
    return cutShort(body, Math.floor(body.length / 2), status, headers);
  }
  if (range && takeCountdown(faults, "shortBody")) {
    const short = body.subarray(0, Math.floor(body.length / 2));
    headers.set("content-length", String(short.length));
    return {
      response: new Response(short, { status, headers }),
      sent: short.length,
    };
  }
  return {
    response: new Response(body, { status, headers }),
    sent: body.length,
  };
}

/**
 * Sends `keep` bytes of a body whose `Content-Length` promises all of it.
 * Ending the stream early makes the server drop the connection, which the
 * client sees as an error while reading the body; an erroring stream would
 * do the same but print a stack trace on the server.
 */
function cutShort(
  body: Uint8Array<ArrayBuffer>,
  keep: number,
  status: number,
  headers: Headers,
): { response: Response; sent: number } {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (keep > 0) controller.enqueue(body.slice(0, keep));
      controller.close();
    },
  });
  return { response: new Response(stream, { status, headers }), sent: keep };
}

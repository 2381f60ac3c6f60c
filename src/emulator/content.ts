/**
 * File bytes as an HTTP answer, by byte range. Both the object store and
 * the no-redirect access endpoint answer through here.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { Answered } from "./fault_answer.ts";

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
 * The answer to a GET or HEAD for file bytes, and how many body bytes it
 * sends: the range asked, `416` past the end, the whole file otherwise.
 */
export function contentReply(
  request: Request,
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
): Answered {
  const total = bytes.length;
  const range = parseRange(request.headers.get("range"), total);
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
    "etag": etagOf(bytes),
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
  return {
    response: new Response(body, { status, headers }),
    sent: body.length,
  };
}

const etags = new WeakMap<Uint8Array, string>();

/** The `ETag` of a file's bytes: their MD5 in quotes, as S3 sends it. */
function etagOf(bytes: Uint8Array): string {
  let etag = etags.get(bytes);
  if (etag === undefined) {
    etag = `"${createHash("md5").update(bytes).digest("hex")}"`;
    etags.set(bytes, etag);
  }
  return etag;
}

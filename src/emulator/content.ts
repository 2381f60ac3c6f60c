/**
 * File bytes as an HTTP answer: byte ranges and the body faults. Both the
 * object store and the no-redirect access endpoint answer through here.
 *
 * @module
 */

import { type EmulatorFaults, takeCountdown } from "./faults.ts";
import { goneSignal, sleep, untilAborted } from "./waits.ts";

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
 * and how many body bytes it sends. Waits for `stall` and `trickle` end when
 * the client goes away or `closed` aborts.
 *
 * @example
 * ```ts
 * import { contentReply } from "./content.ts";
 * import { createFaults } from "./faults.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const request = new Request("http://x/", { headers: { range: "bytes=1-2" } });
 * const { response, sent } = contentReply(request, new Uint8Array([1, 2, 3, 4]), "application/octet-stream", createFaults());
 * strictEqual(response.status, 206);
 * strictEqual(response.headers.get("content-range"), "bytes 1-2/4");
 * strictEqual(sent, 2);
 * deepStrictEqual(await response.bytes(), new Uint8Array([2, 3]));
 * ```
 */
export function contentReply(
  request: Request,
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
  faults: EmulatorFaults,
  closed: AbortSignal = new AbortController().signal,
): { response: Response; sent: number } {
  const isGet = request.method !== "HEAD";
  if (isGet && takeCountdown(faults, "portalPage")) return portalPage();
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
    const shift = isGet && takeCountdown(faults, "shiftContentRange") ? 1 : 0;
    headers.set(
      "content-range",
      `bytes ${range.start + shift}-${range.end + shift}/${total}`,
    );
  }
  const status = range ? 206 : 200;
  const body = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  headers.set("content-length", String(body.length));
  if (!isGet) {
    return { response: new Response(null, { status, headers }), sent: 0 };
  }
  const half = Math.floor(body.length / 2);
  let keep = body.length;
  let stall = false;
  if (takeCountdown(faults, "drop")) keep = 0;
  else if (takeCountdown(faults, "truncate")) keep = half;
  else if ((stall = takeCountdown(faults, "stall"))) keep = half;
  else if (range && takeCountdown(faults, "shortBody")) {
    keep = half;
    headers.set("content-length", String(half));
  }
  const piece = body.subarray(0, keep);
  const paced = keep < body.length || stall || faults.trickle !== null;
  return {
    response: new Response(
      paced
        ? pacedBody(piece, stall, faults, () => goneSignal(request, closed))
        : piece,
      { status, headers },
    ),
    sent: keep,
  };
}

/** What a captive portal or proxy sends instead of the file. */
function portalPage(): { response: Response; sent: number } {
  const page = new TextEncoder().encode("<html>login</html>");
  return {
    response: new Response(page, {
      headers: { "content-type": "text/html" },
    }),
    sent: page.length,
  };
}

/**
 * Streams `piece`, in `faults.trickle` steps while that is set, then ends,
 * or with `stall` waits until the client goes away or the emulator closes
 * before ending. A body that ends short of its `Content-Length` makes the
 * server drop the connection, which the client sees as an error while
 * reading the body; an erroring stream would do the same but print a stack
 * trace on the server. The chunks are copies, as the server may detach them.
 */
function pacedBody(
  piece: Uint8Array<ArrayBuffer>,
  stall: boolean,
  faults: EmulatorFaults,
  goneOf: () => AbortSignal,
): ReadableStream<Uint8Array> {
  const cancelled = new AbortController();
  let gone: AbortSignal | undefined;
  const until = () => gone ??= AbortSignal.any([goneOf(), cancelled.signal]);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const pace = faults.trickle;
      const rest = piece.length - offset;
      if (rest > 0 && offset > 0 && pace) await sleep(pace.everyMs, until());
      if (rest === 0 && stall) await untilAborted(until());
      if (cancelled.signal.aborted) return;
      if (rest === 0 || gone?.aborted) return controller.close();
      const step = pace ? Math.max(1, Math.floor(pace.bytes)) : rest;
      controller.enqueue(piece.slice(offset, offset + step));
      offset = Math.min(piece.length, offset + step);
    },
    cancel() {
      cancelled.abort();
    },
  }, { highWaterMark: 0 });
}

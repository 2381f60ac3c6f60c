/**
 * File bytes as an HTTP answer: byte ranges and the body faults. Both the
 * object store and the no-redirect access endpoint answer through here.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
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
 * the client goes away or `closed` aborts. As S3 does, an `If-Match` that
 * names another object is refused (412) and an `If-Range` that names
 * another object gets the whole file; a store that sends no `ETag`
 * (`unsaidTotal`) honours neither.
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
  if (isGet && takeCountdown(faults, "portalPage")) {
    return wholeAnswer(PORTAL_PAGE, { "content-type": "text/html" }, faults);
  }
  if (isGet && takeCountdown(faults, "gzipBody")) {
    return wholeAnswer(
      new Uint8Array(gzipSync(bytes)),
      { "content-type": contentType, "content-encoding": faults.gzipLabel },
      faults,
    );
  }
  const etag = faults.unsaidTotal ? undefined : etagOf(bytes);
  if (etag !== undefined && !matches(request.headers.get("if-match"), etag)) {
    return {
      response: new Response(PRECONDITION_FAILED, {
        status: 412,
        headers: { "content-type": "application/xml" },
      }),
      sent: 0,
    };
  }
  const ifRange = request.headers.get("if-range");
  const total = bytes.length;
  const range = faults.ignoreRange ||
      (etag !== undefined && ifRange !== null && ifRange.trim() !== etag)
    ? null
    : parseRange(request.headers.get("range"), total);
  if (range && range !== "unsatisfiable" && faults.rangeCap > 0) {
    range.end = Math.min(range.end, range.start + faults.rangeCap - 1);
  }
  const said = faults.unsaidTotal ? "*" : String(total);
  if (range === "unsatisfiable") {
    return {
      response: new Response(null, {
        status: 416,
        headers: faults.unsaidTotal
          ? {}
          : { "content-range": `bytes */${total}` },
      }),
      sent: 0,
    };
  }
  const headers = new Headers({
    "content-type": contentType,
    "accept-ranges": "bytes",
  });
  if (etag !== undefined) headers.set("etag", etag);
  if (range) {
    const shift = isGet && takeCountdown(faults, "shiftContentRange") ? 1 : 0;
    headers.set(
      "content-range",
      `bytes ${range.start + shift}-${range.end + shift}/${said}`,
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
  if (faults.breakAfter > 0) keep = Math.min(keep, faults.breakAfter);
  const piece = body.subarray(0, keep);
  const paced = keep < body.length || stall || faults.trickle !== null ||
    faults.unsaidLength;
  if (faults.unsaidLength) headers.delete("content-length");
  return {
    response: new Response(
      paced
        ? pacedBody(
          piece,
          stall,
          () => faults.trickle,
          () => goneSignal(request, closed),
        )
        : piece,
      { status, headers },
    ),
    sent: keep,
  };
}

/** Whether an `If-Match` holds for an object of `etag`: absent, `*`, or naming it (strong comparison). */
function matches(ifMatch: string | null, etag: string): boolean {
  if (ifMatch === null || ifMatch.trim() === "*") return true;
  return ifMatch.split(",").some((tag) => tag.trim() === etag);
}

/** S3's body for a 412. */
const PRECONDITION_FAILED =
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message><Condition>If-Match</Condition></Error>`;

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

/** What a captive portal or proxy sends instead of the file. */
const PORTAL_PAGE = new TextEncoder().encode("<html>login</html>");

/**
 * A 200 of `body`, streamed with no `Content-Length` while
 * `faults.unsaidLength` holds.
 */
function wholeAnswer(
  body: Uint8Array<ArrayBuffer>,
  headers: HeadersInit,
  faults: EmulatorFaults,
): { response: Response; sent: number } {
  const streamed = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(body.slice());
        controller.close();
      },
    });
  return {
    response: new Response(faults.unsaidLength ? streamed() : body, {
      headers,
    }),
    sent: body.length,
  };
}

/**
 * Streams `piece`, in the steps `pace()` gives while it gives any, then
 * ends, or with `stall` waits until `goneOf()` aborts (the client goes away
 * or the emulator closes) before ending. A body that ends short of its
 * `Content-Length` makes the server drop the connection, which the client
 * sees as an error while reading the body; an erroring stream would do the
 * same but print a stack trace on the server. The chunks are copies, as the
 * server may detach them.
 *
 * @example
 * ```ts
 * import { pacedBody } from "./content.ts";
 * import { strictEqual } from "node:assert/strict";
 * const body = pacedBody(new Uint8Array(10), false, () => ({ bytes: 4, everyMs: 1 }), () => new AbortController().signal);
 * const sizes = [];
 * for await (const chunk of body) sizes.push(chunk.length);
 * strictEqual(sizes.join(), "4,4,2");
 * ```
 */
export function pacedBody(
  piece: Uint8Array<ArrayBuffer>,
  stall: boolean,
  pace: () => EmulatorFaults["trickle"],
  goneOf: () => AbortSignal,
): ReadableStream<Uint8Array> {
  const cancelled = new AbortController();
  let gone: AbortSignal | undefined;
  const until = () => gone ??= AbortSignal.any([goneOf(), cancelled.signal]);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = pace();
      const rest = piece.length - offset;
      if (rest > 0 && offset > 0 && step) await sleep(step.everyMs, until());
      if (rest === 0 && stall) await untilAborted(until());
      if (cancelled.signal.aborted) return;
      if (rest === 0 || gone?.aborted) return controller.close();
      const size = step ? Math.max(1, Math.floor(step.bytes)) : rest;
      controller.enqueue(piece.slice(offset, offset + size));
      offset = Math.min(piece.length, offset + size);
    },
    cancel() {
      cancelled.abort();
    },
  }, { highWaterMark: 0 });
}

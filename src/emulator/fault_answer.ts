/**
 * A fault rule applied to an answer: a delay, the emulator's own error, a
 * new status, headers or body, and a body cut, stalled or trickled.
 *
 * @module
 */

import type { EmulatorContext } from "./context.ts";
import { type FaultRoute, type FaultRule, takeRule } from "./faults.ts";
import { clientGone, failureReply } from "./replies.ts";
import { goneSignal, sleep, untilAborted } from "./waits.ts";

/** An answer and the body bytes it will send. */
export interface Answered {
  /** The answer. */
  response: Response;
  /** Body bytes it sends (counted by the byte counters). */
  sent: number;
}

/**
 * The answer to `request`: the emulator's own from `produce()`, or as the
 * first fault rule that takes it reshapes it. `routes` are the rule routes
 * the request falls under besides its origin's.
 */
export async function answerWithRules(
  context: EmulatorContext,
  origin: "repo" | "store",
  request: Request,
  routes: FaultRoute[],
  produce: () => Answered | Promise<Answered>,
): Promise<Answered> {
  const seen = context.ledger.of(
    origin === "repo" ? "repository" : "store",
    request,
  );
  const rule = takeRule(context.faults, {
    routes: [origin, ...routes],
    method: request.method,
    path: new URL(request.url).pathname,
    file: seen.fileId === undefined ? undefined : context.pathOf(seen.fileId),
    attempt: seen.attempt,
  });
  if (rule === undefined) return await produce();
  if (rule.status !== undefined && rule.status >= 400) {
    context.counters.failuresInjected++;
  }
  const gone = goneSignal(request, context.closed);
  return await faultAnswer(rule, request, origin, produce, gone);
}

/**
 * `rule`'s answer to `request`: `produce()` gives the emulator's own, which
 * the rule reshapes, unless the rule answers with an error of its own.
 * Waits end when `gone` aborts (the client went away or the emulator closed).
 */
export async function faultAnswer(
  rule: FaultRule,
  request: Request,
  origin: "repo" | "store",
  produce: () => Answered | Promise<Answered>,
  gone: AbortSignal,
): Promise<Answered> {
  if (rule.delayMs !== undefined && rule.delayMs > 0) {
    await sleep(rule.delayMs, gone);
    if (request.signal.aborted) return { response: clientGone(), sent: 0 };
  }
  const own = rule.status !== undefined && rule.status >= 400 &&
    rule.body === undefined;
  const base = own
    ? {
      response: failureReply(rule.status!, origin, messageOf(rule, request)),
      sent: 0,
    }
    : await produce();
  const headers = new Headers(base.response.headers);
  for (const [name, value] of Object.entries(rule.headers ?? {})) {
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  if (rule.body !== undefined) {
    await base.response.body?.cancel();
    bytes = typeof rule.body === "string"
      ? new TextEncoder().encode(rule.body)
      : new Uint8Array(rule.body);
    if (rule.headers?.["content-length"] === undefined) {
      headers.set("content-length", String(bytes.length));
    }
  } else if (base.response.body !== null) {
    bytes = new Uint8Array(await base.response.arrayBuffer());
  }
  const status = rule.status ?? base.response.status;
  if (bytes === null || request.method === "HEAD") {
    return { response: new Response(null, { status, headers }), sent: 0 };
  }
  const cut = rule.cutAfter ?? rule.stallAfter;
  const keep = cut === undefined
    ? bytes.length
    : Math.min(bytes.length, cut === "half" ? bytes.length >> 1 : cut);
  const streamed = keep < bytes.length || rule.stallAfter !== undefined ||
    rule.trickle !== undefined || !headers.has("content-length");
  const body = streamed
    ? pacedBody(
      bytes.subarray(0, keep),
      rule.stallAfter !== undefined,
      () => rule.trickle,
      gone,
    )
    : bytes;
  return { response: new Response(body, { status, headers }), sent: keep };
}

function messageOf(rule: FaultRule, request: Request): string | undefined {
  return typeof rule.message === "function"
    ? rule.message(request)
    : rule.message;
}

/**
 * Streams `piece`, `step().bytes` at a time `step().everyMs` apart (at
 * once without a step; read before each piece), then ends, or with `stall` waits until `gone` aborts
 * before ending. A body that ends short of its `Content-Length` makes the
 * server drop the connection, which the client sees as an error while
 * reading the body; an erroring stream would print a stack trace on the
 * server. The chunks are copies, as the server may detach them.
 */
export function pacedBody(
  piece: Uint8Array<ArrayBuffer>,
  stall: boolean,
  step: () => { bytes: number; everyMs: number } | undefined,
  gone: AbortSignal,
): ReadableStream<Uint8Array> {
  const cancelled = new AbortController();
  const until = AbortSignal.any([gone, cancelled.signal]);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let pace = step();
      const rest = piece.length - offset;
      if (rest > 0 && offset > 0 && pace) await sleep(pace.everyMs, until);
      pace = step();
      if (rest === 0 && stall) await untilAborted(until);
      if (cancelled.signal.aborted) return;
      if (rest === 0 || gone.aborted) return controller.close();
      const size = pace ? Math.max(1, Math.floor(pace.bytes)) : rest;
      controller.enqueue(piece.slice(offset, offset + size));
      offset = Math.min(piece.length, offset + size);
    },
    cancel() {
      cancelled.abort();
    },
  }, { highWaterMark: 0 });
}

import {
  deepStrictEqual,
  notStrictEqual,
  strictEqual,
} from "node:assert/strict";
import { createFaults, takeRule } from "../src/emulator/faults.ts";
import { faultAnswer, pacedBody } from "../src/emulator/fault_answer.ts";
import { goneSignal, sleep, untilAborted } from "../src/emulator/waits.ts";
import {
  createCounters,
  enterInFlight,
  resetCounters,
} from "../src/emulator/counters.ts";

const HEAD_7 = {
  routes: ["repo", "head"] as const,
  method: "HEAD",
  path: "/api/access/datafile/7",
  file: "a.txt",
  attempt: 2,
};

Deno.test("faults start from defaults, rules copied", () => {
  const rules = [{ route: "head" as const, status: 429 }];
  const faults = createFaults({ latencyMs: 5, rules });
  strictEqual(faults.latencyMs, 5);
  strictEqual(faults.redirect, true); // a default
  notStrictEqual(faults.rules[0], rules[0]); // a copy
});

Deno.test("a rule matches on every condition, times times", () => {
  const faults = createFaults({
    rules: [
      { route: "content", status: 500 },
      { route: "head", file: "b.txt", status: 501 },
      { route: "head", attempt: 1, status: 502 },
      { route: "head", method: "GET", status: 503 },
      { route: "head", pathIncludes: "/8", status: 504 },
      { route: "head", file: "a.txt", attempt: 2, status: 429, times: 2 },
    ],
  });
  strictEqual(takeRule(faults, HEAD_7)?.status, 429);
  strictEqual(takeRule(faults, HEAD_7)?.status, 429);
  strictEqual(takeRule(faults, HEAD_7), undefined);
  strictEqual(faults.rules.length, 5, "only the spent rule is gone");
  strictEqual(takeRule(faults, { ...HEAD_7, routes: ["repo"] }), undefined);
  const any = createFaults({ rules: [{ status: 503, times: Infinity }] });
  for (let i = 0; i < 3; i++) strictEqual(takeRule(any, HEAD_7)?.status, 503);
  strictEqual(any.rules.length, 1);
});

Deno.test("a fault answers its status or reshapes the answer", async () => {
  const request = new Request("http://x/k");
  const produce = () => ({
    response: new Response("0123456789", {
      status: 206,
      headers: { etag: '"e"', "content-range": "bytes 0-9/20" },
    }),
    sent: 10,
  });
  const gone = new AbortController().signal;
  const own = await faultAnswer(
    { status: 503, message: (r) => `busy for ${r.url}` },
    request,
    "store",
    produce,
    gone,
  );
  strictEqual(own.response.status, 503);
  strictEqual(
    await own.response.text(),
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code><Message>busy for http://x/k</Message></Error>',
  );
  const reshaped = await faultAnswer(
    { status: 200, headers: { etag: null, "x-a": "1" } },
    request,
    "store",
    produce,
    gone,
  );
  strictEqual(reshaped.response.status, 200);
  strictEqual(reshaped.response.headers.get("etag"), null);
  strictEqual(reshaped.response.headers.get("x-a"), "1");
  strictEqual(reshaped.response.headers.get("content-range"), "bytes 0-9/20");
  strictEqual(await reshaped.response.text(), "0123456789");
  const replaced = await faultAnswer(
    { body: "<html>" },
    request,
    "repo",
    produce,
    gone,
  );
  strictEqual(replaced.response.headers.get("content-length"), "6");
  strictEqual(await replaced.response.text(), "<html>");
});

Deno.test("a paced body reads a step at a time", async () => {
  let step: { bytes: number; everyMs: number } | undefined = {
    bytes: 4,
    everyMs: 1,
  };
  const body = pacedBody(
    new Uint8Array(10),
    false,
    () => step,
    new AbortController().signal,
  );
  const sizes = [];
  for await (const chunk of body) {
    sizes.push(chunk.length);
    step = undefined; // the rest at once
  }
  deepStrictEqual(sizes, [4, 6]);
});

Deno.test("sleep resolves at once on abort", async () => {
  const stop = new AbortController();
  const waiting = sleep(60_000, stop.signal);
  stop.abort();
  strictEqual(await waiting, undefined); // resolves, not rejects, its timer cleared
});

Deno.test("untilAborted resolves on abort", async () => {
  const stop = new AbortController();
  const waiting = untilAborted(stop.signal);
  stop.abort();
  strictEqual(await waiting, undefined);
  strictEqual(await untilAborted(AbortSignal.abort()), undefined); // aborted already
});

Deno.test("goneSignal aborts when closed", () => {
  const closing = new AbortController();
  const gone = goneSignal(new Request("http://x/"), closing.signal);
  strictEqual(gone.aborted, false);
  closing.abort();
  strictEqual(gone.aborted, true);
});

Deno.test("counters start at zero", () => {
  strictEqual(createCounters().storeGets, 0);
});

Deno.test("resetCounters zeroes in place", () => {
  const counters = createCounters();
  counters.storeGets = 3;
  enterInFlight(counters, "head"); // a HEAD that has not ended
  resetCounters(counters);
  strictEqual(counters.storeGets, 0);
  strictEqual(counters.heads, 0);
  strictEqual(counters.concurrentHeads, 1);
  strictEqual(counters.peakConcurrentHeads, 1);
});

Deno.test("in-flight counts rise and fall", () => {
  const counters = createCounters();
  const leave = enterInFlight(counters, "head");
  strictEqual(counters.concurrentHeads, 1);
  leave();
  strictEqual(counters.concurrentHeads, 0);
  strictEqual(counters.heads, 1);
  strictEqual(counters.peakConcurrentHeads, 1);
});

// Behaviour of src/emulator/faults.ts and fault_answer.ts: rules, matching, reshaped answers.
import {
  deepStrictEqual,
  notStrictEqual,
  strictEqual,
} from "node:assert/strict";
import { createFaults, takeRule } from "../../../src/emulator/faults.ts";
import { faultAnswer, pacedBody } from "../../../src/emulator/fault_answer.ts";

const HEAD_7 = {
  routes: ["repo", "head"] as const,
  method: "HEAD",
  path: "/api/access/datafile/7",
  file: "a.txt",
  attempt: 2,
};

Deno.test("createFaults: the defaults, overridden by `initial`, the rules copied", () => {
  const rules = [{ route: "head" as const, status: 429 }];
  const faults = createFaults({ latencyMs: 5, rules });
  strictEqual(faults.latencyMs, 5);
  strictEqual(faults.redirect, true); // a default
  notStrictEqual(faults.rules[0], rules[0]); // a copy
});

Deno.test("takeRule: every condition given must hold; a rule is spent `times` times", () => {
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

Deno.test("faultAnswer: an error status of its own, or the emulator's answer reshaped", async () => {
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

Deno.test("pacedBody: a step at a time, read before each piece", async () => {
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

import { deepEqual, equal, rejects, strictEqual } from "node:assert/strict";
import { abortable, whenAborted } from "../src/base/abort_callbacks.ts";
import { Semaphore } from "../src/base/semaphore.ts";
import { delay } from "../src/base/delay.ts";

/** A signal that counts the listeners added to it. */
function countingSignal(): {
  controller: AbortController;
  added: () => number;
} {
  const controller = new AbortController();
  const { signal } = controller;
  let added = 0;
  const add = signal.addEventListener.bind(signal);
  signal.addEventListener = (...args: Parameters<typeof add>) => {
    added++;
    add(...args);
  };
  return { controller, added: () => added };
}

Deno.test("callbacks run once, in the order they were added, unless forgotten", () => {
  const controller = new AbortController();
  const heard: number[] = [];
  const forgets = [1, 2, 3, 4].map((n) =>
    whenAborted(controller.signal, () => heard.push(n))
  );
  forgets[2]();
  controller.abort();
  controller.abort();
  deepEqual(heard, [1, 2, 4]);
  forgets[0]();
});

Deno.test("a callback that forgets a later one stops it", () => {
  const controller = new AbortController();
  const heard: string[] = [];
  whenAborted(controller.signal, () => {
    heard.push("first");
    forgetSecond();
  });
  const forgetSecond = whenAborted(
    controller.signal,
    () => heard.push("second"),
  );
  controller.abort();
  deepEqual(heard, ["first"]);
});

Deno.test("no signal, or one that has aborted, calls nothing", () => {
  let called = 0;
  whenAborted(undefined, () => called++)();
  const aborted = AbortSignal.abort();
  const forget = whenAborted(aborted, () => called++);
  forget();
  equal(called, 0);
});

Deno.test("one signal gets one listener however many wait on it, and a new one after it aborts is not added", () => {
  const { controller, added } = countingSignal();
  const forgets = Array.from(
    { length: 10_000 },
    () => whenAborted(controller.signal, () => {}),
  );
  for (const forget of forgets) forget();
  whenAborted(controller.signal, () => {});
  equal(added(), 1);
  controller.abort();
  whenAborted(controller.signal, () => {});
  equal(added(), 1);
});

Deno.test("10,000 semaphore waiters and delays on one signal add one listener, and all reject when it aborts", async () => {
  const { controller, added } = countingSignal();
  const semaphore = new Semaphore(1);
  const release = await semaphore.acquire();
  const waits = Array.from(
    { length: 10_000 },
    () => semaphore.acquire(controller.signal),
  );
  const naps = Array.from(
    { length: 100 },
    () => delay(60_000, controller.signal),
  );
  equal(added(), 1);
  controller.abort(new Error("stop"));
  const settled = await Promise.allSettled([...waits, ...naps]);
  deepEqual(
    new Set(settled.map((s) => s.status === "rejected" && s.reason.message)),
    new Set(["stop"]),
  );
  release();
  const again = await semaphore.acquire();
  again();
  await rejects(semaphore.acquire(controller.signal), /stop/);
});

Deno.test("whenAborted calls back once", () => {
  const controller = new AbortController();
  const heard: string[] = [];
  whenAborted(controller.signal, () => heard.push("first"));
  const forget = whenAborted(controller.signal, () => heard.push("forgotten"));
  forget();
  controller.abort();
  deepEqual(heard, ["first"]);
});

Deno.test("abortable rejects with the abort reason", async () => {
  const stop = new AbortController();
  const never = new Promise<number>(() => {});
  const waiting = abortable(never, undefined, stop.signal);
  stop.abort(new Error("no longer wanted"));
  await rejects(waiting, /no longer wanted/);
  strictEqual(
    await abortable(Promise.resolve(7), new AbortController().signal),
    7,
  );
});

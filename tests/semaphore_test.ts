import { equal, ok, rejects } from "node:assert/strict";
import { Semaphore } from "../src/base/semaphore.ts";

Deno.test("the semaphore runs a task and gives its value", async () => {
  const heads = new Semaphore(3);
  const { value, waitedMs } = await heads.run(() => Promise.resolve(42));
  equal(value, 42);
  ok(waitedMs >= 0);
});

Deno.test("acquire gives up when its signal aborts", async () => {
  const one = new Semaphore(1);
  const release = await one.acquire();
  await rejects(
    one.acquire(AbortSignal.abort(new Error("gave up"))),
    /gave up/,
  );
  release();
});

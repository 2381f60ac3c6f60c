// Behaviour of src/base/semaphore.ts, moved here from the examples on its internal symbols.
import { equal, ok, rejects } from "node:assert/strict";
import { Semaphore } from "../../../src/base/semaphore.ts";

Deno.test("Semaphore: Limits how many tasks run at once; extra callers wait in FIFO order", async () => {
  const heads = new Semaphore(3);
  const { value, waitedMs } = await heads.run(() => Promise.resolve(42));
  equal(value, 42);
  ok(waitedMs >= 0);
});

Deno.test("Semaphore.acquire: Takes a place, waiting for one if none is free; resolves to the function that gives it back", async () => {
  const one = new Semaphore(1);
  const release = await one.acquire();
  await rejects(
    one.acquire(AbortSignal.abort(new Error("gave up"))),
    /gave up/,
  );
  release();
});

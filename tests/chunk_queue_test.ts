import { equal, ok, rejects } from "node:assert/strict";
import { boundedChunkQueue } from "../src/zarr/chunk_queue.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

Deno.test("at most `limit` chunk reads run at once, and all of them run", async () => {
  const queue = boundedChunkQueue(3);
  let running = 0;
  let peak = 0;
  let done = 0;
  for (let i = 0; i < 20; i++) {
    queue.add(async () => {
      peak = Math.max(peak, ++running);
      await tick();
      running--;
      done++;
    });
  }
  await queue.onIdle();
  equal(peak, 3);
  equal(done, 20);
});

Deno.test("after a failure no new chunk read starts and onIdle rejects", async () => {
  const queue = boundedChunkQueue(2);
  let started = 0;
  for (let i = 0; i < 10; i++) {
    queue.add(async () => {
      started++;
      await tick();
      if (i === 1) throw new Error("chunk 1 failed");
    });
  }
  await rejects(queue.onIdle(), /chunk 1 failed/);
  await tick();
  ok(
    started <= 3,
    `${started} reads started; those queued after the failure must not`,
  );
});

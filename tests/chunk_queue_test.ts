// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { ReadWindow } from "../src/zarr/read_window.ts";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
const fixed = (size: number) =>
  new ReadWindow({ initial: size, floor: size, ceiling: size });

Deno.test("at most `window.size` chunk reads run at once, and all of them run", async () => {
  const queue = chunkQueue(fixed(3), () => 0);
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

Deno.test("after a failure no new chunk read starts and onIdle rejects once the running ones settle", async () => {
  const queue = chunkQueue(fixed(2), () => 0);
  let started = 0;
  let running = 0;
  for (let i = 0; i < 10; i++) {
    queue.add(async () => {
      started++;
      running++;
      await tick();
      if (i === 1) {
        running--;
        throw new Error("chunk 1 failed");
      }
      await tick();
      running--;
    });
  }
  await rejects(queue.onIdle(), /chunk 1 failed/);
  equal(running, 0, "onIdle settled while a chunk read still ran");
  await tick();
  ok(
    started <= 3,
    `${started} reads started; those queued after the failure must not`,
  );
});

Deno.test("a synchronous throw fails the queue like a rejection", async () => {
  const queue = chunkQueue(fixed(2), () => 0);
  queue.add(() => {
    throw new Error("no chunk");
  });
  await rejects(queue.onIdle(), /no chunk/);
});

Deno.test("the queue follows the window: only the floor's reads while it measures the link, more once it grows, fewer after a retry", async () => {
  let ms = 0;
  const sizes: number[] = [];
  const window = new ReadWindow({
    initial: 8,
    floor: 2,
    now: () => ms,
    onResize: (size) => sizes.push(size),
  });
  let retries = 0;
  const queue = chunkQueue(window, () => retries);
  const gates: (() => void)[] = [];
  let running = 0;
  /** For each read as it starts: reads running, and the window's size. */
  const starts: [number, number][] = [];
  for (let i = 0; i < 200; i++) {
    queue.add(async () => {
      starts.push([++running, window.size]);
      await new Promise<void>((open) => gates.push(open));
      running--;
    });
  }
  /** Lets every read in flight end, `elapsedMs` after the last step. */
  const step = async (elapsedMs: number, retry = false) => {
    ms += elapsedMs;
    if (retry) retries++;
    for (const open of gates.splice(0)) open();
    await tick();
  };
  while (window.size < 24) await step(10);
  const grown = window.size;
  const resizes = sizes.length;
  await step(10, true);
  while (gates.length > 0) await step(10);
  await queue.onIdle();
  deepStrictEqual(sizes.slice(0, 2), [2, 8]);
  equal(sizes[resizes], grown >> 1, `${sizes}`);
  deepStrictEqual(starts.filter(([run, size]) => run > size), []);
  ok(starts.some(([, size]) => size === 2), "no read started while measuring");
});

Deno.test("the chunk queue runs every task; after a failure, none not yet started", async () => {
  const queue = chunkQueue(new ReadWindow({ initial: 2 }), () => 0);
  let done = 0;
  for (let i = 0; i < 5; i++) queue.add(async () => void done++);
  await queue.onIdle();
  strictEqual(done, 5);

  // After a failure, tasks not yet started are skipped; those running end.
  const failing = chunkQueue(
    new ReadWindow({ initial: 2, floor: 2, ceiling: 2 }),
    () => 0,
  );
  let started = 0;
  let finished = 0;
  failing.add(() => Promise.reject(new Error("bad chunk")));
  failing.add(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    finished++;
  });
  failing.add(async () => void started++);
  await rejects(failing.onIdle(), /bad chunk/);
  strictEqual(finished, 1);
  strictEqual(started, 0);
});

// Behaviour of src/zarr/chunk_queue.ts, moved here from the examples on its internal symbols.
// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import { rejects, strictEqual } from "node:assert/strict";
import { chunkQueue } from "../../../src/zarr/chunk_queue.ts";
import { ReadWindow } from "../../../src/zarr/read_window.ts";

Deno.test("chunkQueue: zarrita's `ChunkQueue` (p-queue compatible) running at most `window.size` tasks at once, timed…", async () => {
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

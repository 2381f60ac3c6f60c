// Behaviour of src/zarr/read_window.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { chunkReadWindow, ReadWindow } from "../../../src/zarr/read_window.ts";

Deno.test("ReadWindow: The chunk read window: the number of reads to keep in flight", () => {
  let ms = 0;
  const sizes: number[] = [];
  const window = new ReadWindow({
    initial: 8,
    now: () => ms,
    onResize: (size) => sizes.push(size),
  });
  // A whole round: `window.size` reads that each take `readMs`.
  const round = (readMs: number) => {
    const starts = Array.from({ length: window.size }, () => window.started());
    ms += readMs;
    for (const start of starts) window.completed(start);
  };
  round(10); // the first round; then the link is measured at the floor, 4
  round(10); // 4 reads sent alone take 10 ms: back to 8
  round(10); // 8 reads in 10 ms: 3 × 0.8 per ms × 10 ms = 24
  window.congested(); // a 429: 24 → 12
  window.congested(); // same round: ignored
  deepStrictEqual(sizes, [4, 8, 24, 12]);
  strictEqual(window.size, 12);
});

Deno.test("chunkReadWindow: A window for reading chunks of `chunkBytes` decoded bytes each: the default bounds, with…", () => {
  strictEqual(chunkReadWindow(64 * 1024).ceiling, 256);
  strictEqual(chunkReadWindow(4 * 2 ** 20).ceiling, 16);
  strictEqual(chunkReadWindow(4 * 2 ** 20).size, 16);
  strictEqual(chunkReadWindow(2 ** 30).ceiling, 4);
  // One of 8 parts read at once: 8 MiB of its own.
  strictEqual(chunkReadWindow(64 * 1024, 8).ceiling, 128);
  strictEqual(chunkReadWindow(2 * 1024, 8).ceiling, 256);
  strictEqual(chunkReadWindow(4 * 2 ** 20, 8).ceiling, 4);
});

import * as zarr from "zarrita";
import {
  deepStrictEqual,
  equal,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { chunkReadWindow, ReadWindow } from "../src/zarr/read_window.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";

/** A window on a clock the test moves, recording every resize. */
function drivenWindow(
  options: { initial?: number; floor?: number; ceiling?: number } = {},
) {
  let ms = 0;
  const sizes: number[] = [];
  const window = new ReadWindow({
    ...options,
    now: () => ms,
    onResize: (size) => sizes.push(size),
  });
  /** A whole round: `window.size` reads start together and take `readMs`. */
  const round = (readMs: number) => {
    const starts = Array.from({ length: window.size }, () => window.started());
    ms += readMs;
    for (const start of starts) window.completed(start);
  };
  return {
    window,
    sizes,
    round,
    wait: (idleMs: number) => void (ms += idleMs),
  };
}

Deno.test("after its first round the window measures the link with the floor's reads, then goes back to its initial size", () => {
  const { window, sizes, round } = drivenWindow({ initial: 16, floor: 4 });
  round(5);
  equal(window.size, 4);
  round(5);
  deepStrictEqual(sizes, [4, 16]);
});

Deno.test("on a distant link the window triples each round up to the ceiling", () => {
  const { window, sizes, round } = drivenWindow({ initial: 32, ceiling: 200 });
  // Every read takes 20 ms, however many are in flight.
  for (let i = 0; i < 5; i++) round(20);
  deepStrictEqual(sizes, [4, 32, 96, 200]);
  equal(window.size, 200);
});

Deno.test("on a near link the window keeps its initial size: the CPU, not the link, sets the rate", () => {
  const { window, sizes, round } = drivenWindow({ initial: 32 });
  // 4 reads complete per ms whatever the window; one sent alone takes 0.5 ms.
  round(8);
  round(0.5);
  for (let i = 0; i < 5; i++) round(window.size / 4);
  deepStrictEqual(sizes, [4, 32]);
});

Deno.test("reads sent before the link is measured do not count to the measure", () => {
  const { window, sizes, round } = drivenWindow({ initial: 8 });
  const early = window.started();
  round(20); // the first round: now measuring, at 4
  window.completed(early); // a read sent at 8 in flight, not alone
  equal(window.size, 4);
  round(20); // four alone
  deepStrictEqual(sizes, [4, 8]);
});

Deno.test("the link is measured again after 10 s: a link that grew distant gets a bigger window", () => {
  const { window, sizes, round, wait } = drivenWindow({ initial: 32 });
  round(1);
  round(1); // the shortest read is 1 ms
  for (let i = 0; i < 3; i++) round(window.size); // 1 read per ms: 32
  equal(window.size, 32);
  wait(10_000);
  round(20); // the latency is now 20 ms: measure again
  equal(window.size, 4);
  round(20); // the best rate, 1 read per ms, times 20 ms, times 3
  round(20); // 60 reads in 20 ms: 3 × 3 × 20 = 180
  deepStrictEqual(sizes, [4, 32, 4, 60, 180]);
});

Deno.test("a retry while the link is measured keeps the floor's reads, and halves the size before", () => {
  const { window, sizes, round, wait } = drivenWindow({ initial: 32 });
  for (let i = 0; i < 3; i++) round(20); // 4, 32, 96
  wait(10_000);
  round(20); // measure again, at 4
  window.congested();
  equal(window.size, 4);
  round(20); // measured: 3 × 4.8 × 20 = 288, but at most half of 96
  deepStrictEqual(sizes, [4, 32, 96, 4, 48]);
});

Deno.test("a retry halves the window once per round down to the floor, and each round without one gives back a quarter", () => {
  const { window, sizes, round } = drivenWindow({ initial: 32 });
  for (let i = 0; i < 3; i++) round(20); // 4, 32, 96
  window.congested();
  window.congested(); // same round: ignored
  equal(window.size, 48);
  for (let i = 0; i < 5; i++) {
    round(20);
    window.congested();
  }
  equal(window.size, 4); // the floor
  round(20); // the round the last retry began
  for (let i = 0; i < 3; i++) round(20);
  deepStrictEqual(sizes, [4, 32, 96, 48, 24, 12, 6, 4, 5, 6, 7]);
});

Deno.test("big chunks lower the ceiling to 64 MiB in flight, never below the floor", () => {
  equal(chunkReadWindow(64 * 1024).ceiling, 256);
  equal(chunkReadWindow(64 * 1024).size, 32);
  equal(chunkReadWindow(2 ** 20).ceiling, 64);
  equal(chunkReadWindow(16 * 2 ** 20).size, 4);
  equal(chunkReadWindow(2 ** 31).ceiling, 4);
  throws(() => new ReadWindow({ floor: 0 }), /floor must be an integer >= 1/);
  throws(() => new ReadWindow({ floor: 8, ceiling: 4 }), /below floor/);
});

// Over HTTP: a Zarr array of `CHUNKS` one-row chunks, read warm (URLs
// resolved by a first read at 0 ms) at 250 ms emulator latency, where each
// round of reads takes one round trip whatever the window: a distant link,
// that rewards a bigger window. The latency is long beside what a loaded
// machine adds to a round (100 ms made a round of 32 take 163 ms beside
// another test suite, and the window grow to 59 rather than 96).
const CHUNKS = 200;
const LATENCY_MS = 250;

async function arrayOnEmulator(getConcurrency?: number) {
  const values = ramp(Float32Array, CHUNKS * 16);
  const emu = await startEmulator({
    files: await buildZarrStore(
      [{ path: "t", data: values, shape: [CHUNKS, 16], chunks: [1, 16] }],
      { format: 2, prefix: "a.zarr" },
    ),
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    retry: { retries: 20, baseDelayMs: 1, maxDelayMs: 4 },
    getConcurrency,
  });
  deepStrictEqual((await getArray(fs, "a.zarr", "t")).data, values);
  emu.faults.latencyMs = LATENCY_MS;
  return { emu, fs, values };
}

Deno.test("on a distant link a warm getArray keeps well over 32 store GETs in flight", async () => {
  const { emu, fs, values } = await arrayOnEmulator();
  await using _ = emu;
  emu.resetCounters();
  deepStrictEqual((await getArray(fs, "a.zarr", "t")).data, values);
  equal(emu.counters.storeGets, CHUNKS + 1); // and .zarray
  equal(emu.counters.heads, 0);
  // A read alone takes 250 ms, and 32 in flight complete in about as long:
  // 3 × 32 / 250 per ms × 250 ms = 96 (64 as long as the round takes
  // < 375 ms, and more in the rounds after).
  const peak = emu.counters.peakConcurrentStoreGets;
  ok(peak >= 64 && peak <= 200, `peak ${peak} store GETs`);
});

Deno.test("getConcurrency caps the window's store GETs, and a pool shares it out among its workers", async () => {
  const { emu, fs, values } = await arrayOnEmulator(40);
  await using _ = emu;
  emu.resetCounters();
  deepStrictEqual((await getArray(fs, "a.zarr", "t")).data, values);
  equal(emu.counters.peakConcurrentStoreGets, 40);

  // Two workers of 20 each; without the share one worker alone, reading two
  // parts of 32 reads at first, would pass 40.
  await using pool = new RepoFsPool(fs, { workers: 2 });
  deepStrictEqual((await getArray(pool, "a.zarr", "t")).data, values);
  emu.resetCounters();
  deepStrictEqual((await getArray(pool, "a.zarr", "t")).data, values);
  equal(emu.counters.heads, 0);
  const peak = emu.counters.peakConcurrentStoreGets;
  ok(peak <= 40, `peak ${peak} store GETs in a pool of 2`);
});

Deno.test("with a burst of 429s the window halves and fewer store GETs are in flight", async () => {
  const { emu, fs, values } = await arrayOnEmulator();
  await using _ = emu;
  const arr = await zarr.open(zarr.root(zarrStore(fs, "a.zarr")).resolve("t"), {
    kind: "array",
  });
  const read = async () => {
    const sizes: number[] = [];
    const window = new ReadWindow({ onResize: (size) => sizes.push(size) });
    emu.resetCounters();
    const { data } = await zarr.get(arr, null, {
      createQueue: () => chunkQueue(window, () => fs.retries()),
    });
    deepStrictEqual(data, values);
    return { sizes, counters: { ...emu.counters } };
  };

  const clean = await read();
  deepStrictEqual(
    clean.sizes.slice(0, 2),
    [4, 32],
    "a clean read measures the link first",
  );
  ok(clean.sizes[2] > 32, `then grows: ${clean.sizes}`);
  ok(clean.counters.peakConcurrentStoreGets > 32);

  // The 32 GETs of the first round are answered 429, then retried.
  emu.faults.rules.push({ route: "store", status: 429, times: 32 });
  const limited = await read();
  equal(limited.counters.failuresInjected, 32);
  equal(limited.counters.storeGets, CHUNKS + 32);
  equal(limited.sizes[0], 16, "the first change is a decrease");
  ok(
    limited.counters.peakConcurrentStoreGets <
      clean.counters.peakConcurrentStoreGets,
    `peak ${limited.counters.peakConcurrentStoreGets} store GETs with 429s, ${clean.counters.peakConcurrentStoreGets} without`,
  );
});

Deno.test("the read window grows and halves", () => {
  const { window, sizes, round } = drivenWindow({ initial: 8 });
  round(10); // the first round; then the link is measured at the floor, 4
  round(10); // 4 reads sent alone take 10 ms: back to 8
  round(10); // 8 reads in 10 ms: 3 × 0.8 per ms × 10 ms = 24
  window.congested(); // a 429: 24 → 12
  window.congested(); // same round: ignored
  deepStrictEqual(sizes, [4, 8, 24, 12]);
  strictEqual(window.size, 12);
});

Deno.test("chunkReadWindow bounds big chunks", () => {
  strictEqual(chunkReadWindow(64 * 1024).ceiling, 256);
  strictEqual(chunkReadWindow(4 * 2 ** 20).ceiling, 16);
  strictEqual(chunkReadWindow(4 * 2 ** 20).size, 16);
  strictEqual(chunkReadWindow(2 ** 30).ceiling, 4);
  // One of 8 parts read at once: 8 MiB of its own.
  strictEqual(chunkReadWindow(64 * 1024, 8).ceiling, 128);
  strictEqual(chunkReadWindow(2 * 1024, 8).ceiling, 256);
  strictEqual(chunkReadWindow(4 * 2 ** 20, 8).ceiling, 4);
});

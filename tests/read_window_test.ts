import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { chunkReadWindow, ReadWindow } from "../src/zarr/read_window.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";

/** A window on a clock the test moves, recording every resize. */
function drivenWindow(options: { initial?: number; ceiling?: number } = {}) {
  let ms = 0;
  const sizes: number[] = [];
  const window = new ReadWindow({
    ...options,
    now: () => ms,
    onResize: (size) => sizes.push(size),
  });
  /** A whole round: `window.size` reads complete over `elapsedMs`. */
  const round = (elapsedMs: number) => {
    ms += elapsedMs;
    for (let i = window.size; i > 0; i--) window.completed();
  };
  return { window, sizes, round };
}

Deno.test("the window doubles while each round completes reads faster, up to the ceiling", () => {
  const { window, sizes, round } = drivenWindow({ initial: 4, ceiling: 40 });
  // A latency-bound link: every round takes 10 ms whatever the window.
  for (let i = 0; i < 6; i++) round(10);
  deepStrictEqual(sizes, [8, 16, 32, 40]);
  equal(window.size, 40);
});

Deno.test("the window holds when a round is not 10 % faster than the best, and grows again when one is", () => {
  const { window, sizes, round } = drivenWindow({ initial: 8 });
  round(10); // 0.8 reads per ms beats nothing: 16
  round(20); // 0.8: holds
  round(19); // 0.84: less than 10 % better, holds
  equal(window.size, 16);
  round(10); // 1.6: 32
  deepStrictEqual(sizes, [16, 32]);
});

Deno.test("a retry halves the window once per round, down to the floor", () => {
  const { window, sizes, round } = drivenWindow({ initial: 32 });
  window.congested();
  window.congested(); // same round: ignored
  equal(window.size, 16);
  for (let i = 0; i < 5; i++) {
    round(10);
    window.congested();
  }
  equal(window.size, 4); // the floor
  deepStrictEqual(sizes, [16, 8, 4]);
});

Deno.test("after a decrease the window measures one round, then grows by a quarter a round", () => {
  const { window, sizes, round } = drivenWindow({ initial: 64 });
  window.congested(); // 32, the new threshold
  round(10); // 3.2 reads per ms: the rate to beat; holds
  equal(window.size, 32);
  round(5); // 6.4: 32 + 8
  round(5); // 8: 40 + 10
  round(5); // 10: 50 + 12
  deepStrictEqual(sizes, [32, 40, 50, 62]);
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
// resolved by a first read at 0 ms) at 50 ms emulator latency, where each
// round of reads takes one round trip whatever the window: a link that
// rewards a bigger window.
const CHUNKS = 200;
const LATENCY_MS = 50;

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

Deno.test("on a fast link a warm getArray keeps well over 32 store GETs in flight", async () => {
  const { emu, fs, values } = await arrayOnEmulator();
  await using _ = emu;
  emu.resetCounters();
  deepStrictEqual((await getArray(fs, "a.zarr", "t")).data, values);
  equal(emu.counters.storeGets, CHUNKS + 1); // and .zarray
  equal(emu.counters.heads, 0);
  // The first round always beats "no rate yet", so the window doubles.
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
      createQueue: () => chunkQueue(window),
    });
    deepStrictEqual(data, values);
    return { sizes, counters: { ...emu.counters } };
  };

  const clean = await read();
  equal(clean.sizes[0], 64, "a clean read grows first");
  ok(clean.counters.peakConcurrentStoreGets >= 64);

  // The 32 GETs of the first round are answered 429, then retried.
  emu.faults.failures.push({ target: "store", status: 429, count: 32 });
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

Deno.test("a pool's parts read at once share the 64 MiB a read may hold in flight: big chunks keep to it across the workers", async () => {
  // 4 MiB chunks: the ceiling is 16 reads. A pool of 1 cuts the array into
  // 4 parts of 12 chunks and reads 2 at once; with a window each of its own,
  // they would keep 24 chunk reads (96 MiB) in flight.
  const data = new Float32Array(48 * 1024 * 1024).fill(1.5);
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{
        path: "big",
        data,
        shape: [48, 1024, 1024],
        chunks: [1, 1024, 1024],
        compressor: "gzip",
      }],
      { format: 2 },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  equal(chunkReadWindow(4 * 2 ** 20).ceiling, 16);
  deepStrictEqual((await getArray(pool, "", "big")).shape, [48, 1024, 1024]);
  emu.faults.latencyMs = 20;
  emu.resetCounters();
  const { data: read } = await getArray(pool, "", "big");
  equal(read.length, data.length);
  ok((read as Float32Array).every((value) => value === 1.5));
  equal(emu.counters.storeGets, 48 + 1); // and .zarray
  const peak = emu.counters.peakConcurrentStoreGets;
  ok(peak <= 16, `peak ${peak} store GETs of 4 MiB chunks`);
});

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { startEmulator } from "../emulator.ts";
import { urlMessageCounts } from "../src/pool/pool.ts";
import {
  MIN_PART_CHUNKS,
  partCount,
  splitSelection,
} from "../src/zarr/get_array.ts";
import type { ArraySelection } from "../src/formats/array_parts.ts";
import {
  type ArraySpec,
  buildZarrStore,
  ramp,
} from "../fixtures/zarr_writer.ts";

/** 200 chunks of 16 float32 (64 bytes), in `small.zarr`. */
const SMALL: ArraySpec = {
  path: "",
  data: ramp(Float32Array, 200 * 16, 0.25, -3),
  shape: [200, 4, 4],
  chunks: [1, 4, 4],
  compressor: "gzip",
};

async function smallArray() {
  const emu = await startEmulator({
    files: await buildZarrStore([SMALL], { format: 2, prefix: "small.zarr" }),
  });
  const fresh = () => new RepoFs({ host: emu.host, pid: emu.pid });
  return { emu, fresh, [Symbol.asyncDispose]: () => emu.close() };
}

Deno.test("a pool of 2 reading 200 small chunks asks for their URLs in far fewer messages, with one HEAD per file and the HEAD budget kept", async () => {
  await using t = await smallArray();
  t.emu.faults.latencyMs = 5; // HEADs overlap, so the budget is tested
  const alone = await getArray(t.fresh(), "small.zarr", "");
  const headsAlone = t.emu.counters.heads;
  ok(headsAlone > 200, `${headsAlone} HEADs: every chunk and the metadata`);

  const fs = t.fresh();
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await fs.info(""); // the listing; the workers get an empty URL cache
  t.emu.resetCounters();
  const read = await getArray(pool, "small.zarr", "");
  deepStrictEqual(read.data, alone.data);
  equal(t.emu.counters.heads, headsAlone, "one HEAD per file, pool-wide");
  ok(t.emu.counters.peakConcurrentHeads <= 3, "headConcurrency 3");
  const counts = urlMessageCounts(pool);
  ok(counts.asks >= 200, `${counts.asks} URL asks`);
  ok(
    counts.askMessages * 4 <= counts.asks,
    `${counts.asks} URL asks in ${counts.askMessages} messages`,
  );
});

Deno.test("a URL one worker asked for reaches the others: a file read again by another worker needs no ask", async () => {
  await using t = await smallArray();
  const fs = t.fresh();
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const chunks = (await fs.glob("small.zarr/*.0.0")).map((path) => ({ path }));
  equal(chunks.length, 200);
  // Requests go to the least busy worker, in turn: read backwards, every
  // chunk goes to the worker that did not read it the first time.
  const first = await pool.catRanges(chunks);
  const asked = urlMessageCounts(pool).asks;
  equal(asked, 200, "each chunk's URL asked for once");
  const again = await pool.catRanges([...chunks].reverse());
  deepStrictEqual(again, [...first].reverse());
  equal(urlMessageCounts(pool).asks, asked, "no URL asked for again");
  equal(t.emu.counters.heads, 200);
});

Deno.test("URLs the main thread already has go back to a worker in batches", async () => {
  await using t = await smallArray();
  const fs = t.fresh();
  await using pool = new RepoFsPool(fs, { workers: 1 });
  await fs.info(""); // the workers get the URL cache as it is now: empty
  await pool.catFile("small.zarr/.zarray"); // and have it
  await getArray(fs, "small.zarr", ""); // this thread now has every URL
  t.emu.resetCounters();
  const read = await getArray(pool, "small.zarr", "");
  equal(read.data.length, 200 * 16);
  equal(t.emu.counters.heads, 0, "every URL came from this thread's cache");
  const counts = urlMessageCounts(pool);
  ok(
    counts.answerMessages * 4 <= counts.asks,
    `${counts.asks} URL asks answered in ${counts.answerMessages} messages`,
  );
});

Deno.test("a pool's parts of small chunks hold at least MIN_PART_CHUNKS chunks", () => {
  /** Chunks a part touches, the array being chunked `chunks`. */
  const chunksIn = (part: ArraySelection, chunks: number[], shape: number[]) =>
    shape.reduce((all, size, axis) => {
      const index = part![axis];
      if (typeof index === "number") return all;
      const { start, stop } = index ?? { start: 0, stop: size };
      const first = Math.floor((start ?? 0) / chunks[axis]);
      const last = Math.ceil((stop ?? size) / chunks[axis]);
      return all * (last - first);
    }, 1);
  const cases: [ArraySelection, number[], number[], string][] = [
    [[null, null, null], [20_000, 16, 32], [1, 16, 32], "float32"],
    [[null, null, null], [200, 16, 32], [1, 16, 32], "float32"],
    [[null, null], [1000, 40], [1, 10], "float64"],
    [[zarr.slice(3, 950), zarr.slice(0, 10)], [1000, 40], [1, 10], "int16"],
  ].map(([s, shape, chunks, dtype]) =>
    [s, shape, chunks, dtype] as [ArraySelection, number[], number[], string]
  );
  for (const [selection, shape, chunks, dtype] of cases) {
    const count = partCount(selection, { shape, chunks, dtype }, 8);
    const parts = splitSelection(selection, shape, chunks, count);
    equal(parts.length, count);
    for (const part of parts) {
      const n = chunksIn(part, chunks, shape);
      ok(n >= MIN_PART_CHUNKS, `[${shape}] / [${chunks}]: a part of ${n}`);
    }
  }
  equal(
    partCount(null, {
      shape: [200, 16, 32],
      chunks: [1, 16, 32],
      dtype: "float32",
    }, 8),
    3,
    "200 chunks of 2 KiB: 3 parts, not 8",
  );
  equal(
    partCount(null, {
      shape: [64, 512, 512],
      chunks: [1, 512, 512],
      dtype: "float32",
    }, 8),
    8,
    "64 chunks of 1 MiB: as many parts as wanted",
  );
});

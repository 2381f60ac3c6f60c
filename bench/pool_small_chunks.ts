// Issue 13, part 2: `getArray` over many small chunks (default 20,000
// chunks of 2 KiB decoded: float32 [20000, 16, 32], chunks [1, 16, 32],
// gzip) from `RepoFs` alone and from pools of 1, 2 and 4 workers, cold
// (fresh URL cache) and warm (the same instance again), at 0 and 20 ms
// emulator latency, with CPU time and the cold read's ratio to the HEAD
// floor (files × latency / headConcurrency).
//
// Command (from the repository root; ~12 minutes, the 20 ms cold reads
// alone take ~135 s each):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/pool_small_chunks.ts
// Options: --rows=20000 --side=16 --cols=32 (shape [rows, side, cols],
// chunks [1, side, cols]), --latencies=0,20, --sources=0,1,2,4 (0: RepoFs
// alone), --reps=2 (rounds at 0 ms), --warm=3 (warm reads per source and
// round, the median kept).
//
// The emulator runs in a child process (bench/zarr_serve.ts). Workers are
// started and given the dataset before timing (a read of WARMUP_FILE
// through each), so pool start-up is not timed here.

import { countFlag, flag } from "./flags.ts";
import process from "node:process";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { median, printTable } from "./synth_listing.ts";
import {
  ARRAY_PATH,
  checksum,
  spawnZarrServer,
  WARMUP_FILE,
  ZARR_ROOT,
} from "./zarr_serve.ts";

const layout = {
  rows: countFlag("rows", 20_000),
  side: countFlag("side", 16),
  cols: countFlag("cols", 32),
};
const numbers = (name: string, fallback: string) =>
  flag(name, fallback).split(",").map(Number);
const LATENCIES = numbers("latencies", "0,20");
const SOURCES = numbers("sources", "0,1,2,4");
const REPS = countFlag("reps", 2);
const WARM = countFlag("warm", 3);
const HEAD_CONCURRENCY = 3;

const sourceName = (workers: number) =>
  workers === 0 ? "RepoFs alone" : `pool of ${workers}`;

console.log(
  `# pool_small_chunks.ts ${Deno.args.join(" ")} — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno} — ${navigator.hardwareConcurrency} CPUs`,
);
await using server = await spawnZarrServer(layout);
const { info } = server;
console.log(
  `float32 [${info.shape}], chunks [${info.chunks}], gzip: ${info.chunkFiles} chunks of ${
    info.chunkRawBytes / 1024
  } KiB decoded, ${
    (info.chunkStoredBytes / info.chunkFiles / 1024).toFixed(2)
  } KiB stored on average`,
);

interface Sample {
  ms: number;
  cpuMs: number;
  serverCpuMs: number;
  heads: number;
  peakHeads: number;
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A fresh RepoFs (empty URL cache) and, for workers > 0, a started pool. */
async function fresh(workers: number) {
  const fs = new RepoFs({
    host: info.host,
    pid: info.pid,
    headConcurrency: HEAD_CONCURRENCY,
  });
  await fs.catFile(WARMUP_FILE);
  if (workers === 0) return { source: fs, close: () => Promise.resolve() };
  const pool = new RepoFsPool(fs, { workers });
  await Promise.all(
    Array.from({ length: workers }, () => pool.catFile(WARMUP_FILE)),
  );
  return { source: pool, close: () => pool.close() };
}

/** One `getArray` of the whole array, timed and checked. */
async function timedRead(source: RepoFs | RepoFsPool): Promise<Sample> {
  await server.reset();
  const serverBefore = (await server.counters()).cpuMs;
  const cpuBefore = cpuMs();
  const t = performance.now();
  const { data } = await getArray(source, ZARR_ROOT, ARRAY_PATH);
  const ms = performance.now() - t;
  const cpu = cpuMs() - cpuBefore;
  const counters = await server.counters();
  if (checksum(data as Float32Array) !== info.checksum) {
    throw new Error("the values read differ from those written");
  }
  return {
    ms,
    cpuMs: cpu,
    serverCpuMs: counters.cpuMs - serverBefore,
    heads: counters.heads,
    peakHeads: counters.peakConcurrentHeads,
  };
}

const samples = new Map<string, Sample[]>();
const add = (key: string, sample: Sample) =>
  samples.set(key, [...(samples.get(key) ?? []), sample]);

// Untimed warm-up at 0 ms: JIT, the shared routing table, connections.
await server.setLatency(0);
for (const workers of SOURCES) {
  const { source, close } = await fresh(workers);
  await timedRead(source);
  await close();
}

for (const latency of LATENCIES) {
  await server.setLatency(latency);
  const rounds = latency === 0 ? REPS : 1;
  for (let round = 0; round < rounds; round++) {
    for (let s = 0; s < SOURCES.length; s++) {
      const workers = SOURCES[(s + round) % SOURCES.length];
      const { source, close } = await fresh(workers);
      const cold = await timedRead(source);
      add(`${latency}/cold/${workers}`, cold);
      for (let pass = 0; pass < WARM; pass++) {
        add(`${latency}/warm/${workers}`, await timedRead(source));
      }
      await close();
      console.log(
        `  ${latency} ms round ${round} ${sourceName(workers)}: cold ${
          cold.ms.toFixed(0)
        } ms (CPU ${cold.cpuMs.toFixed(0)} ms, ${cold.heads} HEADs)`,
      );
    }
  }
}

const s = (ms: number) => (ms / 1000).toFixed(2);
const rows: string[][] = [];
for (const latency of LATENCIES) {
  for (const urls of ["cold", "warm"]) {
    const alone = median(
      (samples.get(`${latency}/${urls}/0`) ?? []).map((x) => x.ms),
    );
    for (const workers of SOURCES) {
      const list = samples.get(`${latency}/${urls}/${workers}`)!;
      const ms = median(list.map((x) => x.ms));
      const heads = Math.max(...list.map((x) => x.heads));
      const floor = heads * latency / HEAD_CONCURRENCY;
      rows.push([
        `${latency} ms`,
        urls,
        sourceName(workers),
        String(list.length),
        s(ms),
        `${s(median(list.map((x) => x.cpuMs)))} + ${
          s(median(list.map((x) => x.serverCpuMs)))
        }`,
        String(heads),
        String(Math.max(...list.map((x) => x.peakHeads))),
        urls === "cold" && latency > 0 ? `${(ms / floor).toFixed(3)}×` : "—",
        workers === 0 || Number.isNaN(alone)
          ? "—"
          : `${(alone / ms).toFixed(2)}×`,
      ]);
    }
  }
}
printTable([
  "latency",
  "URLs",
  "source",
  "reads",
  "wall s (median)",
  "CPU s: reader + emulator",
  "HEADs",
  "peak HEADs",
  "cold / HEAD floor",
  "speed-up vs RepoFs alone",
], rows);

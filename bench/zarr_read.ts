// Issue 4 benchmark: read and decode EVERY chunk of a gzip-compressed
// float32 Zarr v2 array with `getArray`, from `RepoFs` alone (decoding on
// this thread) and from a `RepoFsPool` of 1, 2 and 4 workers (each worker
// fetches and decodes its share of the rows), at 0 ms and 20 ms emulator
// latency, with URLs cold (a fresh RepoFs, so every file needs its HEAD)
// and warm (the same instance read a second time).
//
// Command (from the repository root; about 3 minutes, 5 with --side=256):
//   deno run --v8-flags=--expose-gc --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/zarr_read.ts
// Options: --rows=2000 --side=128 (shape [rows, side, side], chunks
// [1, side, side]), --reps=3 (rounds at 0 ms; also the warm reads at 20 ms).
// With --expose-gc, this thread's heap is collected before every timed
// read.
//
// The emulator runs in a child process (bench/zarr_serve.ts), so its work
// does not share this thread; it still shares the machine's cores with this
// process and with the pool's workers.

import { countFlag } from "./flags.ts";
import { cpuMs } from "./cpu_time.ts";
import { bareHeads } from "./bare_heads.ts";
import { inFlight } from "./in_flight.ts";
import { gunzipSync } from "node:zlib";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import type { ArrayResult } from "../zarr.ts";
import { median, printTable } from "./synth_listing.ts";
import {
  ARRAY_PATH,
  checksum,
  referenceValues,
  spawnZarrServer,
  WARMUP_FILE,
  ZARR_ROOT,
  type ZarrServer,
} from "./zarr_serve.ts";

const ROWS = countFlag("rows", 2000);
const SIDE = countFlag("side", 128);
const REPS = countFlag("reps", 3);
const HEAD_CONCURRENCY = 3; // RepoFs's default, stated here for the floor
const LATENCIES = [0, 20];
/** 0 workers: RepoFs alone. */
const SOURCES = [0, 1, 2, 4];
/**
 * Per latency: rounds of (fresh instances, one cold read each, then
 * `warm` warm reads each). The 20 ms cold reads cost ~13 s each, so they
 * run once.
 */
const PLAN: Record<number, { rounds: number; warm: number }> = {
  0: { rounds: REPS, warm: 1 },
  20: { rounds: 1, warm: REPS },
};

const sourceName = (workers: number) =>
  workers === 0
    ? "RepoFs alone"
    : `pool, ${workers} worker${workers > 1 ? "s" : ""}`;

const scriptStart = performance.now();
console.log(
  `# zarr_read.ts ${Deno.args.join(" ")}${
    "gc" in globalThis ? " (gc before each timed read)" : ""
  } — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno} (V8 ${Deno.version.v8}) — ${navigator.hardwareConcurrency} CPUs (navigator.hardwareConcurrency) — emulator in a child process (bench/zarr_serve.ts)`,
);

const server: ZarrServer = await spawnZarrServer({ rows: ROWS, side: SIDE });
const { info } = server;
const reference = referenceValues({ rows: ROWS, side: SIDE });
if (checksum(reference) !== info.checksum) {
  throw new Error("the reference values differ from what the child wrote");
}
const referenceWords = new Uint32Array(reference.buffer);
const rawBytes = info.chunkFiles * info.chunkRawBytes;
const MiB = 2 ** 20;
console.log(
  `array ${ZARR_ROOT}/${ARRAY_PATH}: float32, shape [${info.shape}], chunks [${info.chunks}], gzip (written by CompressionStream at its default level); ${info.chunkFiles} chunk files of ${
    info.chunkRawBytes / 1024
  } KiB decoded, ${
    (info.chunkStoredBytes / info.chunkFiles / 1024).toFixed(1)
  } KiB stored on average (ratio ${
    (rawBytes / info.chunkStoredBytes).toFixed(2)
  }); ${(rawBytes / MiB).toFixed(0)} MiB decoded, ${
    (info.chunkStoredBytes / MiB).toFixed(1)
  } MiB stored; ${info.files} files in the dataset; child built it in ${info.buildMs} ms`,
);

interface Instance {
  workers: number;
  fs: RepoFs;
  pool?: RepoFsPool;
  /** Round trip of each HEAD since the last read, ms (from the debug log). */
  headTimes: number[];
  close(): Promise<void>;
}

/** A logger keeping each HEAD's round trip (total minus semaphore wait). */
function headTimer(into: number[]) {
  const line = /waited ([\d.]+) ms for the semaphore, ([\d.]+) ms in total/;
  return {
    debug(message: string) {
      const match = line.exec(message);
      if (match) into.push(Number(match[2]) - Number(match[1]));
    },
    info() {},
    warn() {},
  };
}

/**
 * A fresh RepoFs (empty URL cache; the routing table is shared by instances
 * with the same options, which is fine: only URLs matter here) and, for
 * workers > 0, a pool made from it. The workers are started and initialised
 * before any timing by reading WARMUP_FILE through each of them (its URL
 * is resolved once, on this thread, before the counters are reset).
 */
async function fresh(workers: number): Promise<Instance> {
  const headTimes: number[] = [];
  const fs = new RepoFs({
    host: info.host,
    pid: info.pid,
    headConcurrency: HEAD_CONCURRENCY,
    logger: headTimer(headTimes),
  });
  await fs.catFile(WARMUP_FILE);
  if (workers === 0) {
    return { workers, fs, headTimes, close: () => Promise.resolve() };
  }
  const pool = new RepoFsPool(fs, { workers });
  // The pool gives each new job to the worker with the fewest jobs, so
  // `workers` jobs at once reach every worker.
  await Promise.all(
    Array.from({ length: workers }, () => pool.catFile(WARMUP_FILE)),
  );
  return { workers, fs, pool, headTimes, close: () => pool.close() };
}

function verify(result: ArrayResult): void {
  const { data, shape, stride } = result;
  const expectedShape = [ROWS, SIDE, SIDE];
  const expectedStride = [SIDE * SIDE, SIDE, 1];
  if (
    !(data instanceof Float32Array) ||
    shape.join() !== expectedShape.join() ||
    stride.join() !== expectedStride.join() ||
    data.length !== reference.length
  ) {
    throw new Error(
      `wrong result: ${data.constructor.name} shape [${shape}] stride [${stride}]`,
    );
  }
  const words = new Uint32Array(data.buffer, data.byteOffset, data.length);
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== referenceWords[i]) {
      throw new Error(`value ${i}: ${data[i]}, expected ${reference[i]}`);
    }
  }
}

interface Sample {
  ms: number;
  heads: number;
  peakHeads: number;
  storeGets: number;
  peakGets: number;
  /** CPU time of this process (main thread, workers, V8 and I/O threads). */
  readerCpuMs: number;
  /** CPU time of the emulator's process. */
  serverCpuMs: number;
  /** Mean round trip of this read's HEADs, ms (NaN without HEADs). */
  headMs: number;
}

/** Runs `work` timed, with the child's counters zeroed before. */
async function timed(work: () => Promise<unknown>): Promise<Sample> {
  // The previous read's garbage (its 125 MiB result, at the default size)
  // is collected here rather than during this read.
  (globalThis as { gc?: () => void }).gc?.();
  await server.reset();
  const serverBefore = (await server.counters()).cpuMs;
  const cpuBefore = cpuMs();
  const t = performance.now();
  await work();
  const ms = performance.now() - t;
  const readerCpuMs = cpuMs() - cpuBefore;
  const counters = await server.counters();
  return {
    ms,
    heads: counters.heads,
    peakHeads: counters.peakConcurrentHeads,
    storeGets: counters.storeGets,
    peakGets: counters.peakConcurrentStoreGets,
    readerCpuMs,
    serverCpuMs: counters.cpuMs - serverBefore,
    headMs: NaN,
  };
}

/** One `getArray` of the whole array, timed, then checked. */
async function timedRead(instance: Instance): Promise<Sample> {
  const source = instance.pool ?? instance.fs;
  let result: ArrayResult | undefined;
  instance.headTimes.length = 0;
  const sample = await timed(async () => {
    result = await getArray(source, ZARR_ROOT, ARRAY_PATH);
  });
  verify(result!);
  const { headTimes } = instance;
  sample.headMs = headTimes.reduce((a, b) => a + b, 0) / headTimes.length;
  return sample;
}

// The ids of the files a cold read HEADs: the array's metadata and chunks.
const headIds: number[] = [];
const chunkPaths: string[] = [];
{
  const fs = new RepoFs({ host: info.host, pid: info.pid });
  for (const entry of await fs.ls(`${ZARR_ROOT}/${ARRAY_PATH}`)) {
    if (entry.type !== "file") continue;
    headIds.push(entry.id!);
    if (!entry.name.split("/").pop()!.startsWith(".")) {
      chunkPaths.push(entry.name);
    }
  }
  if (headIds.length !== info.chunkFiles + info.arrayMetaFiles) {
    throw new Error(`${headIds.length} files in the array's directory`);
  }
}

/** The HEAD-only baseline: the same HEADs a cold read sends, as bare `fetch` calls. */
async function rawHeads(): Promise<Sample> {
  let headMs = NaN;
  const sample = await timed(async () => {
    headMs = await bareHeads(info.host, headIds, HEAD_CONCURRENCY);
  });
  sample.headMs = headMs;
  return sample;
}

const rotate = <T>(items: T[], by: number): T[] =>
  items.map((_, i) => items[(i + by) % items.length]);

// Warm-up, untimed, at 0 ms: JIT on this thread, the shared routing table,
// the connection pool; one cold and one warm read per source.
{
  const t = performance.now();
  for (const workers of SOURCES) {
    const instance = await fresh(workers);
    await timedRead(instance);
    await timedRead(instance);
    await instance.close();
  }
  console.log(
    `warm-up (one cold + one warm read per source, untimed): ${
      ((performance.now() - t) / 1000).toFixed(1)
    } s`,
  );
}

type Key = `${number}/${"cold" | "warm" | "raw"}/${number}`;
const samples = new Map<Key, Sample[]>();
const add = (key: Key, sample: Sample) => {
  samples.set(key, [...(samples.get(key) ?? []), sample]);
};
const log = (what: string, sample: Sample) =>
  console.log(
    `  ${what}: ${sample.ms.toFixed(0)} ms, CPU ${
      sample.readerCpuMs.toFixed(0)
    } + emulator ${sample.serverCpuMs.toFixed(0)} ms, ${sample.heads} HEADs`,
  );
/** Per warm pass at 0 ms: RepoFs-alone time over pool-N time. */
const pairedWarm0 = new Map<number, number[]>();

for (const latency of LATENCIES) {
  await server.setLatency(latency);
  const { rounds, warm } = PLAN[latency];
  for (let round = 0; round < rounds; round++) {
    const raw = await rawHeads();
    add(`${latency}/raw/0`, raw);
    log(`${latency} ms round ${round} HEAD-only baseline`, raw);
    const instances = new Map<number, Instance>();
    for (const workers of SOURCES) instances.set(workers, await fresh(workers));
    for (const workers of rotate(SOURCES, round)) {
      const sample = await timedRead(instances.get(workers)!);
      add(`${latency}/cold/${workers}`, sample);
      log(`${latency} ms round ${round} cold ${sourceName(workers)}`, sample);
    }
    for (let pass = 0; pass < warm; pass++) {
      const timesThisPass = new Map<number, number>();
      for (const workers of rotate(SOURCES, round + pass)) {
        const sample = await timedRead(instances.get(workers)!);
        add(`${latency}/warm/${workers}`, sample);
        timesThisPass.set(workers, sample.ms);
        log(
          `${latency} ms round ${round} warm pass ${pass} ${
            sourceName(workers)
          }`,
          sample,
        );
      }
      if (latency === 0) {
        for (const workers of SOURCES.slice(1)) {
          const list = pairedWarm0.get(workers) ?? [];
          list.push(timesThisPass.get(0)! / timesThisPass.get(workers)!);
          pairedWarm0.set(workers, list);
        }
      }
    }
    for (const instance of instances.values()) await instance.close();
  }
}
await server.setLatency(0);

/**
 * Inflating every chunk on this thread with nothing else running, 32 at a
 * time, as zarrita's gzip codec does (a `DecompressionStream` per chunk)
 * and as the pool's workers do (`node:zlib` `gunzipSync`): how much of a
 * read is decoding. Medians of 3, ms.
 */
const inflateMs = await (async () => {
  const fs = new RepoFs({ host: info.host, pid: info.pid });
  const stored: Uint8Array<ArrayBuffer>[] = [];
  await inFlight(32, chunkPaths.length, async (i) => {
    stored[i] = await fs.catFile(chunkPaths[i]) as Uint8Array<ArrayBuffer>;
  });
  const stream = async (bytes: Uint8Array<ArrayBuffer>) => {
    const inflating = new Response(bytes).body!.pipeThrough(
      new DecompressionStream("gzip"),
    );
    return (await new Response(inflating).arrayBuffer()).byteLength;
  };
  const times = { stream: [] as number[], sync: [] as number[] };
  for (let rep = 0; rep < 3; rep++) {
    let t = performance.now();
    await inFlight(32, stored.length, (i) => stream(stored[i]));
    times.stream.push(performance.now() - t);
    t = performance.now();
    for (const bytes of stored) gunzipSync(bytes);
    times.sync.push(performance.now() - t);
  }
  return { stream: median(times.stream), sync: median(times.sync) };
})();

// ---------------------------------------------------------------------------
// The tables

const CORES = navigator.hardwareConcurrency;
const metaHeads = info.arrayMetaFiles;
const floorMs = (latency: number) =>
  info.chunkFiles * latency / HEAD_CONCURRENCY;
const problems: string[] = [];
const med = (key: Key, field: keyof Sample = "ms") =>
  median(samples.get(key)!.map((s) => s[field]));
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const wall = (list: Sample[]) => {
  const times = list.map((s) => s.ms);
  const mid = seconds(median(times));
  return list.length > 1
    ? `${mid} (${seconds(Math.min(...times))}–${seconds(Math.max(...times))})`
    : mid;
};
const distinct = (values: number[]) => [...new Set(values)].join("/");

const rows: (string | number)[][] = [];
for (const latency of LATENCIES) {
  for (const mode of ["cold", "warm"] as const) {
    for (const workers of SOURCES) {
      const key: Key = `${latency}/${mode}/${workers}`;
      const list = samples.get(key)!;
      const ms = med(key);
      const peak = Math.max(...list.map((s) => s.peakHeads));
      const expectHeads = mode === "cold" ? info.chunkFiles + metaHeads : 0;
      const headsOk = list.every((s) => s.heads === expectHeads);
      if (!headsOk) {
        problems.push(
          `${key}: HEADs ${
            distinct(list.map((s) => s.heads))
          }, expected ${expectHeads}`,
        );
      }
      if (peak > HEAD_CONCURRENCY) {
        problems.push(`${key}: peak concurrent HEADs ${peak}`);
      }
      const readerCpu = med(key, "readerCpuMs");
      const serverCpu = med(key, "serverCpuMs");
      const cold20 = mode === "cold" && latency > 0;
      rows.push([
        `${latency} ms`,
        mode,
        sourceName(workers),
        list.length,
        wall(list),
        (info.chunkFiles / (ms / 1000)).toFixed(0),
        (rawBytes / MiB / (ms / 1000)).toFixed(0),
        `${seconds(readerCpu)} + ${seconds(serverCpu)}`,
        seconds((readerCpu + serverCpu) / CORES),
        `${distinct(list.map((s) => s.heads))}${headsOk ? "" : " (!)"}`,
        `${peak}${peak > HEAD_CONCURRENCY ? " (!)" : ""}`,
        `${distinct(list.map((s) => s.storeGets))} (${
          Math.max(...list.map((s) => s.peakGets))
        })`,
        mode === "cold" ? med(key, "headMs").toFixed(2) : "—",
        cold20 ? `${(ms / floorMs(latency)).toFixed(3)}×` : "—",
        cold20 ? `${(ms / med(`${latency}/raw/0`)).toFixed(3)}×` : "—",
        workers > 0 ? `${(med(`${latency}/${mode}/0`) / ms).toFixed(2)}×` : "—",
      ]);
    }
  }
}

console.log(
  `\n## getArray of the whole array (${info.chunkFiles} chunks, ${
    (rawBytes / MiB).toFixed(0)
  } MiB decoded); times are medians (min–max), in s\n`,
);
printTable([
  "latency",
  "URLs",
  "source",
  "reads",
  "wall s",
  "chunks/s",
  "MiB/s decoded",
  "CPU s: reader + emulator",
  `(CPU) / ${CORES} cores`,
  `HEADs`,
  `peak concurrent HEADs (≤ ${HEAD_CONCURRENCY})`,
  "store GETs (peak in flight)",
  "HEAD round trip, ms (mean)",
  "cold / HEAD floor",
  "cold / HEAD-only baseline",
  "speed-up vs RepoFs alone",
], rows);

console.log(
  `\n## HEAD-only baseline: the same ${headIds.length} HEADs as bare fetch() calls, ${HEAD_CONCURRENCY} at a time, no GET, no decoding\n`,
);
printTable(
  [
    "latency",
    "runs",
    "wall s",
    "HEADs",
    "peak concurrent HEADs",
    "HEAD round trip, ms (mean)",
    "per HEAD and slot, ms",
    "/ HEAD floor",
  ],
  LATENCIES.map((latency) => {
    const key: Key = `${latency}/raw/0`;
    const list = samples.get(key)!;
    const ms = med(key);
    return [
      `${latency} ms`,
      list.length,
      wall(list),
      distinct(list.map((s) => s.heads)),
      Math.max(...list.map((s) => s.peakHeads)),
      med(key, "headMs").toFixed(2),
      (ms * HEAD_CONCURRENCY / headIds.length).toFixed(2),
      latency > 0 ? `${(ms / floorMs(latency)).toFixed(3)}×` : "—",
    ];
  }),
);

console.log(
  `\nHEAD floor of a cold read = files × latency / headConcurrency = ${info.chunkFiles} × 20 ms / ${HEAD_CONCURRENCY} = ${
    seconds(floorMs(20))
  } s at 20 ms (${
    seconds((info.chunkFiles + metaHeads) * 20 / HEAD_CONCURRENCY)
  } s counting the ${metaHeads} metadata HEAD); 0 at 0 ms.`,
);
{
  const baseline = med("20/raw/0");
  const perSlot = baseline * HEAD_CONCURRENCY / headIds.length;
  const ratios = (against: number, sources: number[]) =>
    sources.map((w) => med(`20/cold/${w}`) / against);
  const range = (values: number[]) =>
    `${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}×`;
  const pools = SOURCES.slice(1);
  const verdict = (values: number[]) =>
    Math.max(...values) <= 1.1 ? "met" : "NOT met";
  console.log(
    `Target, cold at 20 ms within 1.1× of the floor:\n` +
      `  with the nominal HEAD latency (20 ms; floor ${
        seconds(floorMs(20))
      } s): pools ${range(ratios(floorMs(20), pools))}, RepoFs alone ${
        range(ratios(floorMs(20), [0]))
      } — ${verdict(ratios(floorMs(20), SOURCES))}; bare fetch HEADs alone ${
        (baseline / floorMs(20)).toFixed(3)
      }×\n` +
      `  with the measured HEAD latency (${
        perSlot.toFixed(2)
      } ms per HEAD and slot, the HEAD-only baseline; floor ${
        seconds(baseline)
      } s): pools ${range(ratios(baseline, pools))} — ${
        verdict(ratios(baseline, pools))
      }; RepoFs alone ${range(ratios(baseline, [0]))} — ${
        verdict(ratios(baseline, [0]))
      } (its HEADs take ${
        med("20/cold/0", "headMs").toFixed(1)
      } ms on the thread that also decodes, against ${
        med("20/raw/0", "headMs").toFixed(1)
      } ms bare)`,
  );
}
for (const [workers, ratios] of pairedWarm0) {
  const overall = med("0/warm/0") / med(`0/warm/${workers}`);
  console.log(
    `Warm, 0 ms: ${sourceName(workers)} vs RepoFs alone = ${
      overall.toFixed(2)
    }× (per pass ${ratios.map((r) => r.toFixed(2)).join(", ")})${
      workers === 2
        ? ` — target ≥ 1.5×: ${overall >= 1.5 ? "met" : "NOT met"}`
        : ""
    }`,
  );
}
console.log(
  `Decoding, 0 ms: inflating the ${chunkPaths.length} chunks on one thread with nothing else running takes ${
    seconds(inflateMs.stream)
  } s with a DecompressionStream per chunk, as zarrita does on the main thread (${
    (100 * inflateMs.stream / med("0/warm/0")).toFixed(0)
  } % of RepoFs alone's warm read), and ${
    seconds(inflateMs.sync)
  } s with node:zlib gunzipSync, as the pool's workers do.`,
);
{
  const alone = med("0/warm/0");
  const cpu = med("0/warm/0", "readerCpuMs") + med("0/warm/0", "serverCpuMs");
  console.log(
    `CPU bound, warm at 0 ms: RepoFs alone burns ${seconds(cpu)} s of CPU ` +
      `(this process + the emulator) in ${seconds(alone)} s; on ${CORES} ` +
      `cores no split of that work can finish in less than ${
        seconds(cpu / CORES)
      } s, a speed-up of at most ${(alone / (cpu / CORES)).toFixed(2)}×.`,
  );
}
if (problems.length > 0) {
  console.log(`\nCOUNTER CHECKS FAILED:\n  ${problems.join("\n  ")}`);
} else {
  console.log(
    `\nChecks: every result equals the values written (all ${reference.length} float32 compared bit for bit); ` +
      `cold reads sent exactly ${
        info.chunkFiles + metaHeads
      } HEADs, warm reads none; peak concurrent HEADs ≤ ${HEAD_CONCURRENCY}.`,
  );
}
console.log(
  `whole script: ${((performance.now() - scriptStart) / 1000).toFixed(0)} s`,
);
await server.stop();
if (problems.length > 0) Deno.exit(1);

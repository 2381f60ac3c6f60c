// Issue 13 benchmark, every goal in one run. `getArray` of every chunk of a
// gzip float32 Zarr v2 array (bench/zarr_serve.ts, in a child process), with
// 64 KiB chunks (2,000) and 2 KiB chunks (20,000), at 0 and 20 ms emulator
// latency, from `RepoFs` alone and from pools of 1, 2 and 4 workers. Each
// source reads in `deno run` processes of its own, as a user's script does,
// and the sources take turns, so that the machine's drift falls on all:
//   cold     a new process, an empty `urlCacheDir`: every file needs its
//            HEAD (listing and pool start-up included); one source after
//            the other, each process kept running
//   warm     `--reps` rounds; in each, every source's process reads again
//            (URLs in memory), one after the other. A pool is compared
//            with `RepoFs` round by round (the median of the rounds' ratios)
//   second   `--reps` rounds; in each, every source starts a new process on
//            its own `urlCacheDir` and reads once, listing included, with
//            the URLs from the file
// Against:
//   baseline zarrita's `open` and `get` with every chunk read in flight (its
//            default queue; with more than 2,000 chunks, 2,000 in flight, as
//            20,000 sockets exceed the open-files limit) over a plain
//            `fetch` store on the content URLs resolved beforehand: the warm
//            wire, in this process; and once more in a `deno run` process
//            of its own, whose first read is what a new process costs
//            without any of this package
//   HEADs    in this process, the HEADs of a cold read as bare `fetch` calls, 3 at a time
//            (`headConcurrency`): the cold wire, measured; the nominal
//            floor is HEADs × latency / 3
//
// Command (from the repository root; about 25 minutes):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run=deno bench/close_to_wire.ts
// Options: --reps=3 (rounds of warm reads and of second processes, and
// baseline reads),
// --layouts=64,2 (KiB chunk layouts to run), --latencies=0,20,
// --sources=0,1,2,4 (0: RepoFs alone, which the pools are compared
// with; else pool sizes), --store=nginx (chunks from Debian's nginx, see
// bench/zarr_serve.ts; add --allow-run=deno,nginx).

import * as zarr from "zarrita";
import {
  type ChildServer,
  commandLines,
  spawnChildServer,
} from "./child_server.ts";
import { bareHeads } from "./bare_heads.ts";
import {
  cpuMs,
  type ThreadCpu,
  threadCpu,
  threadCpuSince,
} from "./cpu_time.ts";
import { countFlag, flag } from "./flags.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { ReadWindow } from "../src/zarr/read_window.ts";
import { median, printTable } from "./synth_listing.ts";
import {
  ARRAY_PATH,
  checksum,
  spawnZarrServer,
  type StoreServer,
  ZARR_ROOT,
  type ZarrServer,
} from "./zarr_serve.ts";

/** What a reader process answers to `read`. */
export interface ReadReport {
  ms: number;
  /** The reader's CPU time over the read, all threads. */
  cpuMs: number;
  /** Where that CPU time went (Linux only). */
  threads?: ThreadCpu;
}

/**
 * A reader: `--reader=HOST --pid=P --workers=N (0: RepoFs alone) --dir=D
 * --checksum=C`; answers each `read` line with a {@linkcode ReadReport}
 * and exits when its stdin closes, writing its URL cache as it goes.
 */
async function readerProcess(): Promise<void> {
  const fs = new RepoFs({
    host: flag("reader", ""),
    pid: flag("pid", ""),
    urlCacheDir: flag("dir", ""),
  });
  const workers = Number(flag("workers", "0"));
  const pool = workers > 0 ? new RepoFsPool(fs, { workers }) : undefined;
  await answerReads(async () =>
    (await getArray(pool ?? fs, ZARR_ROOT, ARRAY_PATH)).data as Float32Array
  );
  await pool?.close();
}

/**
 * The baseline in a process of its own: `--baseline=FILE` (the URLs of
 * {@linkcode wireUrls}, as JSON entries) `--chunks=N --checksum=C`;
 * answers each `read` line with a {@linkcode ReadReport}.
 */
async function baselineProcess(): Promise<void> {
  const urls = new Map<string, string>(
    JSON.parse(await Deno.readTextFile(flag("baseline", ""))),
  );
  await answerReads(baselineRead(urls, Number(flag("chunks", "0"))));
}

/**
 * A child's side: prints its ready line, then times `read` for each `read`
 * line and answers with a {@linkcode ReadReport}, once the values are
 * checked against `--checksum` (not timed).
 */
async function answerReads(read: () => Promise<Float32Array>): Promise<void> {
  console.log("{}");
  for await (const line of commandLines()) {
    if (line !== "read") throw new Error(`unknown command ${line}`);
    const cpu = cpuMs();
    const threadsBefore = threadCpu();
    const started = performance.now();
    const values = await read();
    const ms = performance.now() - started;
    const report: ReadReport = {
      ms,
      cpuMs: cpuMs() - cpu,
      threads: threadCpuSince(threadsBefore),
    };
    checkValues(values, flag("checksum", ""));
    console.log(JSON.stringify(report));
  }
}

/** Throws unless `values` are the ones written (`expected`: their checksum). */
function checkValues(values: Float32Array, expected: string): void {
  if (String(checksum(values)) !== expected) {
    throw new Error("the array read back differs from the one written");
  }
}

/** One timed read and what the emulator saw of it. */
interface Sample {
  ms: number;
  cpuMs: number;
  heads: number;
  peakGets: number;
}

const REPS = countFlag("reps", 3);
/** The array's two layouts: 2,000 chunks of 64 KiB, 20,000 of 2 KiB. */
export const CHUNK_LAYOUTS = [
  { kib: "64", rows: 2000, side: 128, cols: 128 },
  { kib: "2", rows: 20000, side: 16, cols: 32 },
];
const LAYOUTS = CHUNK_LAYOUTS.filter(({ kib }) =>
  flag("layouts", "64,2").split(",").includes(kib)
);
const LATENCIES = flag("latencies", "0,20").split(",").map(Number);
const STORE = flag("store", "emulator") as StoreServer;
const SOURCES = flag("sources", "0,1,2,4").split(",").map(Number);
const HEAD_CONCURRENCY = 3;
/** Most chunk reads the baseline keeps in flight. */
const BASELINE_IN_FLIGHT = 2000;
const GOAL = { warm: 1.2, coldPool: 1.05, second: 1.2 };

/** A source's name in the tables: `workers` 0 is `RepoFs` alone. */
export const sourceName = (workers: number) =>
  workers === 0 ? "RepoFs" : `pool of ${workers}`;
const s = (ms: number) => (ms / 1000).toFixed(2);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
/** "median (min–max)" of `values`, each as `show` writes it (ms as s by default). */
export const spread = (values: number[], show = s) =>
  values.length === 1
    ? show(values[0])
    : `${show(median(values))} (${show(Math.min(...values))}–${
      show(Math.max(...values))
    })`;
/** The sources in the order they read in round `round`: each round starts with the next. */
export const inTurn = (sources: number[], round: number) =>
  sources.map((_, i) => sources[(i + round) % sources.length]);

async function main(): Promise<void> {
  const scriptStart = performance.now();
  console.log(
    `# close_to_wire.ts ${Deno.args.join(" ")} — ${
      new Date().toISOString()
    } — Deno ${Deno.version.deno} (V8 ${Deno.version.v8}) — ${navigator.hardwareConcurrency} CPUs — chunks from ${
      STORE === "nginx" ? "nginx" : "the emulator's store"
    }`,
  );
  const rows: (string | number)[][] = [];
  const verdicts: string[] = [];
  for (const layout of LAYOUTS) {
    await using server = await spawnZarrServer(layout, STORE);
    const { info } = server;
    const label = `${layout.kib} KiB × ${info.chunkFiles}`;
    console.log(
      `${label}: shape [${info.shape}], chunks [${info.chunks}], ${
        (info.chunkStoredBytes / info.chunkFiles / 1024).toFixed(2)
      } KiB stored a chunk`,
    );
    const { urls, ids } = await wireUrls(server);
    const urlFile = await Deno.makeTempFile({ prefix: "close_to_wire_" });
    await Deno.writeTextFile(urlFile, JSON.stringify([...urls]));
    const read = baselineRead(urls, info.chunkFiles);
    for (const latency of LATENCIES) {
      await server.setLatency(latency);
      const baseline: number[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        const { ms, value } = await measure(server, read);
        checkValues(value, String(info.checksum));
        baseline.push(ms);
      }
      const baselineMs = median(baseline);
      const newProcess = await baselineInNewProcesses(server, urlFile);
      const newProcessMs = median(newProcess);
      const headsMs = latency > 0
        ? (await measure(
          server,
          () => bareHeads(info.host, ids, HEAD_CONCURRENCY),
        )).ms
        : undefined;
      console.log(
        `  ${latency} ms: baseline ${
          spread(baseline)
        } s, first read of a new process ${spread(newProcess)} s${
          headsMs === undefined ? "" : `, bare HEADs ${s(headsMs)} s`
        }`,
      );
      rows.push([
        label,
        `${latency} ms`,
        "zarrita, all in flight (baseline)",
        "—",
        "—",
        "—",
        spread(baseline),
        "1.00×",
        "—",
        spread(newProcess),
        ratio(newProcessMs, baselineMs),
        "— / — / —",
        "—",
        "—",
      ]);
      const runs = await sourcesRuns(server, SOURCES);
      const repoFs = runs.get(0);
      for (const workers of SOURCES) {
        const got = runs.get(workers)!;
        const name = sourceName(workers);
        const warmTimes = got.warm.map((x) => x.ms);
        const secondTimes = got.second.map((x) => x.ms);
        const second = median(secondTimes);
        const secondHeads = got.second.map((x) => x.heads);
        const allSecondHeads = secondHeads.reduce((a, b) => a + b, 0);
        const warm = median(warmTimes);
        const nominalMs = got.cold.heads * latency / HEAD_CONCURRENCY;
        const paired = repoFs && workers > 0
          ? median(got.warm.map((x, round) => x.ms / repoFs.warm[round].ms))
          : undefined;
        console.log(
          `  ${latency} ms ${name}: cold ${s(got.cold.ms)} s, warm ${
            spread(warmTimes)
          } s, second ${spread(secondTimes)} s`,
        );
        rows.push([
          label,
          `${latency} ms`,
          name,
          s(got.cold.ms),
          latency > 0 ? ratio(got.cold.ms, nominalMs) : "—",
          headsMs === undefined ? "—" : ratio(got.cold.ms, headsMs),
          spread(warmTimes),
          ratio(warm, baselineMs),
          paired === undefined ? "—" : `${paired.toFixed(2)}×`,
          spread(secondTimes),
          ratio(second, warm),
          `${got.cold.heads} / ${got.warm.map((x) => x.heads).join(",")} / ${
            secondHeads.join(",")
          }`,
          STORE === "emulator"
            ? Math.max(...got.warm.map((x) => x.peakGets))
            : "—",
          `${s(got.cold.cpuMs)} / ${s(median(got.warm.map((x) => x.cpuMs)))}`,
        ]);
        const where = `${label}, ${latency} ms, ${name}`;
        verdicts.push(
          verdict(
            `${where}: warm / baseline`,
            warm / baselineMs,
            GOAL.warm,
          ),
          verdict(
            `${where}: second process / warm, ${allSecondHeads} HEADs (the baseline's first read in a new process: ${
              ratio(newProcessMs, baselineMs)
            } its warm)`,
            allSecondHeads === 0 ? second / warm : Infinity,
            GOAL.second,
          ),
        );
        if (repoFs && workers > 0) {
          verdicts.push(
            verdict(
              `${where}: warm / RepoFs warm, median of the ${REPS} rounds' ratios`,
              paired!,
              1,
            ),
            verdict(
              `${where}: cold / RepoFs cold`,
              got.cold.ms / repoFs.cold.ms,
              1,
            ),
          );
          if (headsMs !== undefined && info.chunkFiles >= 20_000) {
            verdicts.push(
              verdict(
                `${where}: cold / bare HEADs`,
                got.cold.ms / headsMs,
                GOAL.coldPool,
              ),
              verdict(
                `${where}: cold / nominal floor`,
                got.cold.ms / nominalMs,
                GOAL.coldPool,
              ),
            );
          }
        }
      }
    }
    await server.setLatency(0);
    await Deno.remove(urlFile);
  }
  console.log(
    `\n## Cold, warm and second-process reads (median (min–max) of ${REPS}), s\n`,
  );
  printTable([
    "chunks",
    "latency",
    "source",
    "cold s",
    "cold / nominal floor",
    "cold / bare HEADs",
    "warm s",
    "warm / baseline",
    "warm / RepoFs warm, paired",
    "second process s",
    "second / warm",
    "HEADs cold / warm / second",
    "peak store GETs warm",
    "CPU s cold / warm",
  ], rows);
  console.log(`\n## Goals\n\n${verdicts.map((v) => `- ${v}`).join("\n")}`);
  console.log(
    `\nwhole script: ${
      ((performance.now() - scriptStart) / 1000).toFixed(0)
    } s`,
  );
}

function verdict(what: string, value: number, goal: number): string {
  return `${what}: ${value.toFixed(2)}× (goal ≤ ${goal}×) — ${
    value <= goal ? "met" : "NOT met"
  }`;
}

/**
 * The content URL of every file of the hierarchy, by zarrita key, resolved
 * at 0 ms through a `RepoFs`; and the file ids.
 */
async function wireUrls(
  server: ZarrServer,
): Promise<{ urls: Map<string, string>; ids: number[] }> {
  const { host, pid } = server.info;
  const fs = new RepoFs({ host, pid });
  const urls = new Map<string, string>();
  const ids: number[] = [];
  for (const path of await fs.find(ZARR_ROOT)) {
    const { id } = await fs.info(path);
    ids.push(id!);
    urls.set(path.slice(ZARR_ROOT.length), await fs.resolveDownloadUrl(id!));
  }
  return { urls, ids };
}

/**
 * The baseline's read: zarrita opens the array and reads every chunk with
 * all in flight (at most {@linkcode BASELINE_IN_FLIGHT}) over a plain
 * `fetch` store on `urls`.
 */
function baselineRead(
  urls: Map<string, string>,
  chunkFiles: number,
): () => Promise<Float32Array> {
  const store: zarr.AsyncReadable = {
    async get(key: string) {
      const url = urls.get(key);
      if (url === undefined) return undefined;
      const response = await fetch(url);
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`GET ${key}: ${response.status}`);
      }
      return new Uint8Array(await response.arrayBuffer());
    },
  };
  const fixed = BASELINE_IN_FLIGHT;
  const options = chunkFiles > fixed
    ? {
      createQueue: () =>
        chunkQueue(
          new ReadWindow({ initial: fixed, floor: fixed, ceiling: fixed }),
          () => 0,
        ),
    }
    : {};
  return async () => {
    const arr = await zarr.open(zarr.root(store).resolve(ARRAY_PATH), {
      kind: "array",
    });
    const { data } = await zarr.get(arr, null, options);
    return data as Float32Array;
  };
}

/**
 * The first read of the baseline in a new process, in ms: each of `REPS`
 * processes reads once.
 */
async function baselineInNewProcesses(
  server: ZarrServer,
  urlFile: string,
): Promise<number[]> {
  const times: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    await using child = await spawnChildServer<Record<string, never>>(
      new URL(import.meta.url),
      [
        `--baseline=${urlFile}`,
        `--chunks=${server.info.chunkFiles}`,
        `--checksum=${server.info.checksum}`,
      ],
      "a baseline process",
      ["--allow-net=127.0.0.1", "--allow-read"],
    );
    await server.reset();
    times.push((await child.ask<ReadReport>("read")).ms);
  }
  return times;
}

/** Times `read` in this process: its time in ms, and what it gave. */
async function measure<T>(
  server: ZarrServer,
  read: () => Promise<T>,
): Promise<{ ms: number; value: T }> {
  await server.reset();
  const started = performance.now();
  const value = await read();
  return { ms: performance.now() - started, value };
}

/** One source's reads: its cold read, its warm reads and its second processes' reads, by round. */
interface SourceRuns {
  cold: Sample;
  warm: Sample[];
  second: Sample[];
}

/**
 * Every source's reads, sources alternated so that they share the
 * machine's drift: each source's cold read in a process of its own, one
 * source after the other; then `REPS` rounds of one warm read from each of
 * these processes (all kept running, idle but for their own read); then
 * `REPS` rounds of one new process per source, on that source's URL cache
 * directory, reading once. Each round starts with the next source, so
 * that none always reads first.
 */
async function sourcesRuns(
  server: ZarrServer,
  sources: number[],
): Promise<Map<number, SourceRuns>> {
  const runs = new Map<number, SourceRuns>();
  const dirs = new Map<number, string>();
  try {
    await using readers = new AsyncDisposableStack();
    const firsts = new Map<number, ChildServer<Record<string, never>>>();
    for (const workers of sources) {
      dirs.set(
        workers,
        await Deno.makeTempDir({ prefix: "close_to_wire_" }),
      );
      const first = readers.use(
        await spawnReader(server, workers, dirs.get(workers)!),
      );
      firsts.set(workers, first);
      runs.set(workers, {
        cold: await readIn(server, first.ask),
        warm: [],
        second: [],
      });
    }
    for (let round = 0; round < REPS; round++) {
      for (const workers of inTurn(sources, round)) {
        runs.get(workers)!.warm.push(
          await readIn(server, firsts.get(workers)!.ask),
        );
      }
    }
    await Promise.all([...firsts.values()].map((first) => first.stop()));
    for (let round = 0; round < REPS; round++) {
      for (const workers of inTurn(sources, round)) {
        await using next = await spawnReader(
          server,
          workers,
          dirs.get(workers)!,
        );
        runs.get(workers)!.second.push(await readIn(server, next.ask));
      }
    }
    return runs;
  } finally {
    for (const dir of dirs.values()) {
      await Deno.remove(dir, { recursive: true });
    }
  }
}

async function readIn(
  server: ZarrServer,
  ask: <T>(command: string) => Promise<T>,
): Promise<Sample> {
  await server.reset();
  const report = await ask<ReadReport>("read");
  const counters = await server.counters();
  return {
    ...report,
    heads: counters.heads,
    peakGets: counters.peakConcurrentStoreGets,
  };
}

/**
 * A reader process (see {@linkcode readerProcess}) of `workers` workers (0:
 * `RepoFs` alone) on the URL cache directory `dir`, with `permissions`;
 * each `read` it is asked answers with a {@linkcode ReadReport}, whose
 * `threads` needs `--allow-all` (Deno's rule for `/proc/self`).
 *
 * @example
 * ```ts ignore
 * await using reader = await spawnReader(server, 2, dir);
 * const { ms } = await reader.ask<ReadReport>("read");
 * ```
 */
export function spawnReader(
  server: ZarrServer,
  workers: number,
  dir: string,
  permissions = [
    "--allow-net=127.0.0.1",
    "--allow-read",
    "--allow-write",
    "--allow-env",
  ],
): Promise<ChildServer<Record<string, never>>> {
  const { host, pid } = server.info;
  return spawnChildServer<Record<string, never>>(
    new URL(import.meta.url),
    [
      `--reader=${host}`,
      `--pid=${pid}`,
      `--workers=${workers}`,
      `--dir=${dir}`,
      `--checksum=${server.info.checksum}`,
    ],
    "a reader process",
    permissions,
  );
}

if (import.meta.main) {
  if (flag("reader", "") !== "") await readerProcess();
  else if (flag("baseline", "") !== "") await baselineProcess();
  else await main();
}

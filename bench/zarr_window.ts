// Issue 13 benchmark: warm `getArray` of every chunk of a gzip float32 Zarr
// v2 array against zarrita reading the same chunks with every chunk read in
// flight (its default queue) from a plain fetch store over the content URLs
// resolved beforehand through the RepoFs — the all-in-flight baseline; with
// more than 2,000 chunks it keeps 2,000 in flight, as 20,000 sockets at once
// exceed the open-files limit (20,000 here: `fetch` fails with EMFILE) — in
// the same run, at 0 and 20 ms emulator latency, with 64 KiB chunks (2,000)
// and 2 KiB chunks (20,000). Sources: `RepoFs` alone, pools of 1, 2 and 4
// workers, and two diagnostics: `RepoFs` with the old fixed window of 32
// chunk reads (zarrita's `get` with a fixed-size `chunkQueue`, as
// `getArray` did before), and `RepoFs` with `getConcurrency: 256` (the
// RepoFs's own bound on content GETs, 64 by default, lifted).
//
// Command (from the repository root; about 7 minutes):
//   deno run --v8-flags=--expose-gc --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/zarr_window.ts
// Options: --reps=3 (timed reads per source, latency and chunk size).
//
// Every source reads once at 0 ms before timing (untimed: this resolves its
// URLs and starts the workers), so every timed read is warm: no HEAD. The
// emulator runs in a child process (bench/zarr_serve.ts) and shares the
// machine's cores with this process and the workers.

import { countFlag } from "./flags.ts";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { chunkQueue } from "../src/zarr/chunk_queue.ts";
import { ReadWindow } from "../src/zarr/read_window.ts";
import { median, printTable } from "./synth_listing.ts";
import {
  ARRAY_PATH,
  checksum,
  spawnZarrServer,
  ZARR_ROOT,
  type ZarrServer,
} from "./zarr_serve.ts";

const REPS = countFlag("reps", 3);
const LATENCIES = [0, 20];
const LAYOUTS = [
  { label: "64 KiB", rows: 2000, side: 128, cols: 128 },
  { label: "2 KiB", rows: 20000, side: 16, cols: 32 },
];
const BASELINE = "zarrita, all in flight (baseline)";
/** Most chunk reads the baseline keeps in flight. */
const BASELINE_IN_FLIGHT = 2000;
const GOAL = 1.2;

interface Source {
  name: string;
  /** Reads the whole array; resolves to its values. */
  read(): Promise<Float32Array>;
  close(): Promise<void>;
}

interface Sample {
  ms: number;
  storeGets: number;
  heads: number;
  peakGets: number;
}

const scriptStart = performance.now();
console.log(
  `# zarr_window.ts ${Deno.args.join(" ")}${
    "gc" in globalThis ? " (gc before each timed read)" : ""
  } — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno} (V8 ${Deno.version.v8}) — ${navigator.hardwareConcurrency} CPUs — emulator in a child process (bench/zarr_serve.ts)`,
);

/**
 * A zarrita store over pre-resolved content URLs: one plain `fetch` per
 * key, as zarrita's `FetchStore` does, with nothing bounding them.
 */
function urlStore(urls: Map<string, string>): zarr.AsyncReadable {
  return {
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
}

/** Every file of the Zarr group by zarrita key, its URL resolved by `fs`. */
async function resolveAll(fs: RepoFs): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const path of await fs.find(ZARR_ROOT)) {
    const { id } = await fs.info(path);
    urls.set(
      path.slice(ZARR_ROOT.length),
      await fs.resolveDownloadUrl(id!),
    );
  }
  return urls;
}

const openField = (store: zarr.AsyncReadable) =>
  zarr.open(zarr.root(store).resolve(ARRAY_PATH), { kind: "array" });

async function sources(server: ZarrServer): Promise<Source[]> {
  const { host, pid } = server.info;
  const fs = new RepoFs({ host, pid });
  const wide = new RepoFs({ host, pid, getConcurrency: 256 });
  const values = async (source: RepoFs | RepoFsPool) =>
    (await getArray(source, ZARR_ROOT, ARRAY_PATH)).data as Float32Array;
  await values(fs); // resolves every chunk's URL before the pools copy them
  const urls = await resolveAll(fs);
  const baseline = await openField(urlStore(urls));
  const fixed = await openField(zarrStore(fs, ZARR_ROOT));
  const fixedQueue = (size: number) => () =>
    chunkQueue(new ReadWindow({ initial: size, floor: size, ceiling: size }));
  const baselineQueue = server.info.chunkFiles > BASELINE_IN_FLIGHT
    ? { createQueue: fixedQueue(BASELINE_IN_FLIGHT) }
    : {};
  const list: Source[] = [
    {
      name: BASELINE,
      read: async () =>
        (await zarr.get(baseline, null, baselineQueue)).data as Float32Array,
      close: async () => {},
    },
    {
      name: "RepoFs, fixed window of 32 (before)",
      read: async () =>
        (await zarr.get(fixed, null, { createQueue: fixedQueue(32) }))
          .data as Float32Array,
      close: async () => {},
    },
    { name: "RepoFs", read: () => values(fs), close: async () => {} },
    {
      name: "RepoFs, getConcurrency 256",
      read: () => values(wide),
      close: async () => {},
    },
  ];
  for (const workers of [1, 2, 4]) {
    const pool = new RepoFsPool(fs, { workers });
    list.push({
      name: `pool, ${workers} worker${workers > 1 ? "s" : ""}`,
      read: () => values(pool),
      close: () => pool.close(),
    });
  }
  return list;
}

async function timed(
  server: ZarrServer,
  source: Source,
  expected: number,
): Promise<Sample> {
  (globalThis as { gc?: () => void }).gc?.();
  await server.reset();
  const t = performance.now();
  const data = await source.read();
  const ms = performance.now() - t;
  const counters = await server.counters();
  if (checksum(data) !== expected) {
    throw new Error(`${source.name}: wrong values`);
  }
  return {
    ms,
    storeGets: counters.storeGets,
    heads: counters.heads,
    peakGets: counters.peakConcurrentStoreGets,
  };
}

const rotate = <T>(items: T[], by: number): T[] =>
  items.map((_, i) => items[(i + by) % items.length]);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
const rows: (string | number)[][] = [];
const verdicts: string[] = [];

for (const layout of LAYOUTS) {
  await using server = await spawnZarrServer(layout);
  const { info } = server;
  console.log(
    `${layout.label}: shape [${info.shape}], chunks [${info.chunks}], ${info.chunkFiles} chunks, ${
      (info.chunkStoredBytes / info.chunkFiles / 1024).toFixed(1)
    } KiB stored on average; child built it in ${info.buildMs} ms`,
  );
  const list = await sources(server);
  for (const source of list) {
    const t = performance.now();
    await timed(server, source, info.checksum);
    console.log(
      `  warm-up ${source.name}: ${seconds(performance.now() - t)} s`,
    );
  }
  for (const latency of LATENCIES) {
    await server.setLatency(latency);
    const samples = new Map<string, Sample[]>();
    for (let rep = 0; rep < REPS; rep++) {
      for (const source of rotate(list, rep)) {
        const sample = await timed(server, source, info.checksum);
        samples.set(source.name, [...samples.get(source.name) ?? [], sample]);
        console.log(
          `  ${latency} ms rep ${rep} ${source.name}: ${
            seconds(sample.ms)
          } s, ${sample.storeGets} store GETs (peak ${sample.peakGets}), ${sample.heads} HEADs`,
        );
      }
    }
    const baselineMs = median(samples.get(BASELINE)!.map((s) => s.ms));
    for (const source of list) {
      const got = samples.get(source.name)!;
      const times = got.map((s) => s.ms);
      const ms = median(times);
      const ratio = ms / baselineMs;
      if (source.name === "RepoFs" || source.name.startsWith("pool,")) {
        verdicts.push(
          `${layout.label}, ${latency} ms, ${source.name}: ${
            ratio.toFixed(2)
          }× — ${ratio <= GOAL ? "met" : "NOT met"}`,
        );
      }
      rows.push([
        layout.label,
        `${latency} ms`,
        source.name,
        got.length,
        `${seconds(ms)} (${seconds(Math.min(...times))}–${
          seconds(Math.max(...times))
        })`,
        (info.chunkFiles / (ms / 1000)).toFixed(0),
        [...new Set(got.map((s) => s.storeGets))].join("/"),
        [...new Set(got.map((s) => s.heads))].join("/"),
        Math.max(...got.map((s) => s.peakGets)),
        source.name === BASELINE ? "—" : `${ratio.toFixed(2)}×`,
      ]);
    }
  }
  for (const source of list) await source.close();
  await server.setLatency(0);
}

console.log(
  `\n## Warm getArray vs zarrita with every chunk read in flight; medians (min–max) of ${REPS}, s\n`,
);
printTable([
  "chunks",
  "latency",
  "source",
  "reads",
  "wall s",
  "chunks/s",
  "store GETs",
  "HEADs",
  "peak concurrent store GETs",
  "ours / baseline",
], rows);
console.log(
  `\nGoal, warm within ${GOAL}× of the all-in-flight baseline:\n  ${
    verdicts.join("\n  ")
  }`,
);
console.log(
  `whole script: ${((performance.now() - scriptStart) / 1000).toFixed(0)} s`,
);

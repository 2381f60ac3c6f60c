// Issue "Real installations", big datasets: the listing read in pages of
// 1,000 (newer installations) against the whole listing in one JSON answer
// (older installations), for 100,000 and 1,000,000 files: wall time and
// peak heap of the reading process.
//
// Command (from the repository root; about 4 minutes):
//   deno run --v8-flags=--expose-gc --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/listing_pages.ts
// Options: --sizes=100000,1000000  --rounds=2 (passes per size and mode,
// alternating paged and whole)
//
// The emulator runs in a child process (this same script with --serve), so
// this process holds only the client. Per size the child builds the files
// once (bench/synth_listing.ts's Zarr-like layout) and starts one emulator
// with `pagedFiles: true` and one with `pagedFiles: false`. The client side
// is what RepoFs#buildTable runs: FileLister over RepoApi into
// RoutingTable.builder(). Its sink samples `Deno.memoryUsage().heapUsed`
// every 1,000 files, as does a 2 ms timer between requests, so the peak
// includes the parsed whole answer while the table is built from it. The
// heap is collected before each pass; all heap figures are above that
// baseline. "peak heapUsed" is what V8 held, garbage not yet collected
// included; "peak live" comes from one more pass per mode (not timed) that
// collects the heap before each sample, taken every 1/20 of the files;
// "retained" is the heap once the pass is over and collected again, with
// the table alive: the table's own size.

import { spawnChildServer } from "./child_server.ts";
import { flag } from "./flags.ts";
import { median, pathOf, printTable, zarrLayout } from "./synth_listing.ts";
import { startEmulator } from "../emulator.ts";
import type { Emulator } from "../emulator.ts";
import { FileLister, type ListingSink } from "../src/api/file_lister.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import { RetryPolicy } from "../src/api/retry.ts";
import { RoutingTable } from "../src/tree/routing_table.ts";

/** What the child prints when it serves a size. */
interface Served {
  paged: { host: string; pid: string };
  whole: { host: string; pid: string };
  buildMs: number;
}

const MIB = 2 ** 20;

if (import.meta.main && Deno.args.includes("--serve")) {
  await serve();
} else if (import.meta.main) {
  await measure();
}

/** The child: `serve <n>` starts both emulators over n files; `calls` gives their listing calls. */
async function serve(): Promise<void> {
  let running: Emulator[] = [];
  console.log(JSON.stringify({ ready: true }));
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  let buffered = "";
  for await (const text of lines) {
    buffered += text;
    for (let cut; (cut = buffered.indexOf("\n")) !== -1;) {
      const [command, arg] = buffered.slice(0, cut).split(" ");
      buffered = buffered.slice(cut + 1);
      if (command === "serve") {
        await Promise.all(running.map((emu) => emu.close()));
        running = [];
        const t = performance.now();
        const files: Record<string, string> = {};
        for (const file of zarrLayout(Number(arg)).files) {
          files[pathOf(file)] = "{}";
        }
        const paged = await startEmulator({ files });
        const whole = await startEmulator({ files, pagedFiles: false });
        running = [paged, whole];
        const served: Served = {
          paged: { host: paged.host, pid: paged.pid },
          whole: { host: whole.host, pid: whole.pid },
          buildMs: performance.now() - t,
        };
        console.log(JSON.stringify(served));
      } else if (command === "calls") {
        console.log(
          JSON.stringify(running.map((e) => e.counters.listingCalls)),
        );
        for (const emu of running) emu.resetCounters();
      }
    }
  }
  await Promise.all(running.map((emu) => emu.close()));
}

/** One pass's numbers. */
interface Pass {
  ms: number;
  peak: number;
  retained: number;
}

/** How a pass samples the heap: every `every` files, collecting first or not. */
interface Sampling {
  every: number;
  collect: boolean;
}

async function measure(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) {
    throw new Error(
      "run with --v8-flags=--expose-gc: peaks need a collected baseline",
    );
  }
  const sizes = flag("sizes", "100000,1000000").split(",").map(Number);
  const rounds = Number(flag("rounds", "2"));
  console.log(
    `# listing_pages.ts — ${
      new Date().toISOString()
    } — Deno ${Deno.version.deno}, V8 ${Deno.version.v8}\n`,
  );
  await using child = await spawnChildServer<{ ready: boolean }>(
    new URL(import.meta.url),
    ["--serve"],
    "listing_pages.ts --serve",
    ["--allow-net=127.0.0.1", "--allow-read", "--allow-env"],
  );
  const rows: (string | number)[][] = [];
  const timed: Sampling = { every: 1000, collect: false };
  for (const n of sizes) {
    const served = await child.ask<Served>(`serve ${n}`);
    console.error(
      `${n} files: child built both emulators in ${
        (served.buildMs / 1000).toFixed(1)
      } s`,
    );
    const passes = { paged: [] as Pass[], whole: [] as Pass[] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0
        ? (["paged", "whole"] as const)
        : (["whole", "paged"] as const);
      for (const mode of order) {
        passes[mode].push(await listOnce(served[mode], n, gc, timed));
      }
    }
    const [pagedCalls, wholeCalls] = await child.ask<number[]>("calls");
    const live: Sampling = {
      every: Math.max(1000, Math.floor(n / 20)),
      collect: true,
    };
    for (const mode of ["paged", "whole"] as const) {
      const list = passes[mode];
      const retained = median(list.map((p) => p.retained));
      const livePeak = (await listOnce(served[mode], n, gc, live)).peak;
      rows.push([
        n.toLocaleString("en-US"),
        mode === "paged" ? "paged (1,000 per page)" : "whole JSON",
        (mode === "paged" ? pagedCalls : wholeCalls) / rounds,
        (median(list.map((p) => p.ms)) / 1000).toFixed(2),
        mib(Math.max(...list.map((p) => p.peak))),
        mib(livePeak),
        mib(retained),
        (livePeak / retained).toFixed(2),
      ]);
    }
  }
  printTable(
    [
      "files",
      "listing",
      "requests per pass",
      "wall s (median)",
      "peak heapUsed MiB",
      "peak live MiB",
      "retained MiB (the table)",
      "peak live / retained",
    ],
    rows,
  );
}

/** One listing of `:latest`, as RepoFs#buildTable reads it, with the heap sampled. */
async function listOnce(
  target: { host: string; pid: string },
  n: number,
  gc: () => void,
  how: Sampling,
): Promise<Pass> {
  const api = RepoApi.connect({
    host: target.host,
    timeoutMs: 600_000,
    retry: new RetryPolicy({ retries: 0 }),
  });
  const lister = new FileLister(api);
  gc();
  gc();
  const baseline = Deno.memoryUsage().heapUsed;
  let peak = baseline;
  const sample = () => {
    if (how.collect) gc();
    peak = Math.max(peak, Deno.memoryUsage().heapUsed);
  };
  const timer = how.collect ? undefined : setInterval(sample, 2);
  const start = performance.now();
  let table: RoutingTable;
  try {
    table = await lister.list(
      target.pid,
      ":latest",
      () => sampling(sample, how.every),
    );
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - start;
  sample();
  gc();
  gc();
  const retained = Deno.memoryUsage().heapUsed - baseline;
  if (table.fileCount !== n) {
    throw new Error(`listed ${table.fileCount} of ${n} files`);
  }
  console.error(
    `  ${target.host}${how.collect ? " (live)" : ""}: ${
      (ms / 1000).toFixed(2)
    } s, peak ${mib(peak - baseline)} MiB, retained ${mib(retained)} MiB`,
  );
  return { ms, peak: peak - baseline, retained };
}

/** A table builder that samples the heap every `every` files. */
function sampling(
  sample: () => void,
  every: number,
): ListingSink<RoutingTable> {
  const builder = RoutingTable.builder();
  let added = 0;
  return {
    add(file) {
      builder.add(file);
      if (++added % every === 0) sample();
    },
    finish: () => builder.finish(),
  };
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(0);
}

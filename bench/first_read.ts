// What a new process's first read costs beyond its later ones, and where
// that CPU time goes: issue 13's "second process" goal, taken apart. The
// array and readers are bench/close_to_wire.ts's: one process per source
// first fills its `urlCacheDir` (a cold read at 0 ms, not timed); then, at
// `--latency`, `--processes` rounds in which every source starts a new
// process on its filled cache and reads the whole array `--reads` times.
// Each read is listed by its number in the process: wall time, CPU time of
// the main thread, the workers and V8's own threads (compilers, garbage
// collector), system CPU time, and minor page faults (memory touched for
// the first time), each the median (min–max) over the processes. The first
// read includes the listing and the URL cache file, as a script's does.
//
// Command (from the repository root; about a minute; Linux, for /proc,
// which Deno lets only `--allow-all` read, so the readers have it):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run=deno,nginx bench/first_read.ts --store=nginx
// Options: --layout=64 (64 or 2 KiB chunks), --latency=20, --sources=0,2
// (0: RepoFs alone; else pool sizes), --processes=3, --reads=4,
// --store=emulator (chunks from the emulator, not nginx; then
// --allow-run=deno is enough).

import {
  CHUNK_LAYOUTS,
  inTurn,
  type ReadReport,
  sourceName,
  spawnReader,
  spread,
} from "./close_to_wire.ts";
import { countFlag, flag } from "./flags.ts";
import { median, printTable } from "./synth_listing.ts";
import { spawnZarrServer, type StoreServer } from "./zarr_serve.ts";

const LAYOUT = CHUNK_LAYOUTS.find(({ kib }) => kib === flag("layout", "64"));
if (LAYOUT === undefined) throw new Error("bad --layout (64 or 2)");
const LATENCY = Number(flag("latency", "20"));
const SOURCES = flag("sources", "0,2").split(",").map(Number);
const PROCESSES = countFlag("processes", 3);
const READS = countFlag("reads", 4);
const STORE = flag("store", "emulator") as StoreServer;

console.log(
  `# first_read.ts ${Deno.args.join(" ")} — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno} — ${navigator.hardwareConcurrency} CPUs`,
);
await using server = await spawnZarrServer(LAYOUT, STORE);
const dirs = new Map<number, string>();
try {
  for (const workers of SOURCES) {
    const dir = await Deno.makeTempDir({ prefix: "first_read_" });
    dirs.set(workers, dir);
    await using filler = await spawnReader(server, workers, dir);
    await filler.ask<ReadReport>("read");
  }
  await server.setLatency(LATENCY);
  const reports = new Map(SOURCES.map((w) => [w, [] as ReadReport[][]]));
  for (let round = 0; round < PROCESSES; round++) {
    for (const workers of inTurn(SOURCES, round)) {
      await using reader = await spawnReader(
        server,
        workers,
        dirs.get(workers)!,
        ["--allow-all"],
      );
      const reads: ReadReport[] = [];
      for (let read = 0; read < READS; read++) {
        await server.reset();
        reads.push(await reader.ask<ReadReport>("read"));
      }
      reports.get(workers)!.push(reads);
      const heads = (await server.counters()).heads;
      if (heads > 0) throw new Error(`${heads} HEADs with a filled URL cache`);
    }
  }
  const rows: string[][] = [];
  for (const workers of SOURCES) {
    const processes = reports.get(workers)!;
    const last = median(processes.map((reads) => reads[READS - 1].ms));
    for (let read = 0; read < READS; read++) {
      const at = processes.map((reads) => reads[read]);
      const thread = (key: "main" | "workers" | "v8" | "system") =>
        spread(at.map((r) => r.threads?.[key] ?? NaN));
      rows.push([
        sourceName(workers),
        String(read + 1),
        spread(at.map((r) => r.ms)),
        `${(median(at.map((r) => r.ms)) / last).toFixed(2)}×`,
        spread(at.map((r) => r.cpuMs)),
        thread("main"),
        thread("workers"),
        thread("v8"),
        thread("system"),
        spread(
          at.map((r) => r.threads?.minorFaults ?? NaN),
          (faults) => (faults / 1000).toFixed(0),
        ),
      ]);
    }
  }
  console.log(
    `\n${LAYOUT.kib} KiB chunks, ${LATENCY} ms, ${STORE}; median (min–max) of ${PROCESSES} processes\n`,
  );
  printTable([
    "source",
    "read",
    "wall s",
    "/ last read",
    "CPU s",
    "main thread s",
    "workers s",
    "V8 threads s",
    "system s",
    "minor faults, thousands",
  ], rows);
} finally {
  for (const dir of dirs.values()) await Deno.remove(dir, { recursive: true });
}

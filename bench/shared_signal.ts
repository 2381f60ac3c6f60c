// One signal for many reads: `Promise.all` of a `catFile` for every chunk
// file of bench/zarr_serve.ts' 20,000-chunk array (2 KiB decoded, about
// 1.2 KiB stored, one file each), all started at once, warm (URLs resolved
// by a first `getArray`), at 0 ms emulator latency. Each source reads
// without a signal and with one `AbortController`'s signal passed to every
// call, alternately, `--reps` times; the table gives the medians.
//
// The calls wait in the content semaphore (`getConcurrency`) and, through a
// pool, in its workers; each waiter listens to the caller's signal. Until
// the callbacks of one signal shared a listener (src/base/abort_callbacks.ts),
// each `addEventListener` and `removeEventListener` went through all of the
// signal's listeners.
//
// Command (from the repository root; about 3 minutes):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/shared_signal.ts
// Options: --reps=3, --rows=20000 (chunk files), --workers=2 (the pool's).

import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { cpuMs } from "./cpu_time.ts";
import { countFlag } from "./flags.ts";
import { median, printTable } from "./synth_listing.ts";
import { ARRAY_PATH, spawnZarrServer, ZARR_ROOT } from "./zarr_serve.ts";

const reps = countFlag("reps", 3);
const rows = countFlag("rows", 20_000);
const workers = countFlag("workers", 2);

await using server = await spawnZarrServer({ rows, side: 16, cols: 32 });
const fs = new RepoFs({ host: server.info.host, pid: server.info.pid });
await getArray(fs, ZARR_ROOT, ARRAY_PATH);
const chunks = (await fs.find(`${ZARR_ROOT}/${ARRAY_PATH}`))
  .filter((path) => !path.split("/").pop()!.startsWith("."));
if (chunks.length !== server.info.chunkFiles) {
  throw new Error(
    `found ${chunks.length} chunk files, expected ${server.info.chunkFiles}`,
  );
}

/** Wall and CPU ms of reading every chunk file at once. */
async function readAll(
  source: RepoFs | RepoFsPool,
  signal?: AbortSignal,
): Promise<{ wallMs: number; cpuMs: number }> {
  const [wall, cpu] = [performance.now(), cpuMs()];
  const bytes = await Promise.all(
    chunks.map((path) => source.catFile(path, { signal })),
  );
  const result = { wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
  const stored = bytes.reduce((sum, b) => sum + b.length, 0);
  if (stored !== server.info.chunkStoredBytes) {
    throw new Error(
      `read ${stored} bytes, expected ${server.info.chunkStoredBytes}`,
    );
  }
  return result;
}

await using pool = new RepoFsPool(fs, { workers });
await pool.catFile(chunks[0]);
console.log(
  `${chunks.length} catFile calls at once, warm, 0 ms; median of ${reps}\n`,
);
const sources = [["RepoFs", fs], [`pool of ${workers}`, pool]] as const;
const table: string[][] = [];
for (const [name, source] of sources) {
  const none: { wallMs: number; cpuMs: number }[] = [];
  const shared: { wallMs: number; cpuMs: number }[] = [];
  for (let i = 0; i < reps; i++) {
    none.push(await readAll(source));
    shared.push(await readAll(source, new AbortController().signal));
  }
  const cell = (runs: typeof none) =>
    `${(median(runs.map((r) => r.wallMs)) / 1000).toFixed(2)} s / ${
      (median(runs.map((r) => r.cpuMs)) / 1000).toFixed(1)
    } s`;
  const ratio = median(shared.map((r) => r.wallMs)) /
    median(none.map((r) => r.wallMs));
  table.push([name, cell(none), cell(shared), `${ratio.toFixed(2)}×`]);
}
printTable([
  "source",
  "no signal: wall / CPU",
  "one shared signal: wall / CPU",
  "signal / none (wall)",
], table);

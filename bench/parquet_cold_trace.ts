// Where the time of a cold read of one Parquet column chunk goes, ours
// (`readParquet` rows, `readParquetColumns`) and hyparquet's URL reader:
// each request in order (when it was sent, when its answer's headers came)
// and the time after the last answer (body, decode, rows), medians of
// `--reps` cold reads, the sides alternated, at 20 ms a request. `fetch` is
// wrapped here only to note when each request goes and its answer comes.
//
// Command (from the repository root; writes a 3,000,000-row big.parquet as
// bench/peers.ts does):
//   deno run --allow-net --allow-read --allow-write --allow-env --allow-run --v8-flags=--expose-gc bench/parquet_cold_trace.ts
// Options: --reps=15.

import { asyncBufferFromUrl, parquetReadObjects } from "hyparquet";
import { countFlag } from "./flags.ts";
import { ROW_GROUP, writeParquetFile } from "./format_files.ts";
import { spawnPeersServer } from "./peers_serve.ts";
import { median, printTable } from "./synth_listing.ts";
import { RepoFs } from "../mod.ts";
import { readParquet, readParquetColumns } from "../parquet.ts";

const REPS = countFlag("reps", 15);
const dir = await Deno.makeTempDir({ prefix: "repo-fs-trace-" });
await writeParquetFile(dir, 3_000_000);
await using server = await spawnPeersServer(dir, 20);
await Deno.remove(dir, { recursive: true });
const { host, pid, urls } = server.info;
const rowStart = 12 * ROW_GROUP;
const options = { columns: ["x"], rowStart, rowEnd: rowStart + ROW_GROUP };

/** Per request of the read under way: [sent, answered] ms from its start, and what it asked. */
let requests: { sent: number; answered: number; what: string }[] = [];
let started = 0;
const fetchItself = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const sent = performance.now() - started;
  const request = new Request(input, init);
  const response = await fetchItself(input, init);
  requests.push({
    sent,
    answered: performance.now() - started,
    what: `${request.method} ${request.headers.get("range") ?? ""}`.trim(),
  });
  return response;
};

const sides: [string, () => Promise<unknown>][] = [
  [
    "`readParquet`",
    () => readParquet(new RepoFs({ host, pid }), "big.parquet", options),
  ],
  [
    "`readParquetColumns`",
    () => readParquetColumns(new RepoFs({ host, pid }), "big.parquet", options),
  ],
  ["hyparquet's URL reader", async () =>
    parquetReadObjects({
      file: await asyncBufferFromUrl({ url: urls["big.parquet"] }),
      ...options,
    })],
];
const seen = new Map<
  string,
  { totals: number[]; steps: number[][]; what: string[] }
>();
for (let rep = 0; rep < REPS; rep++) {
  for (const [name, read] of sides) {
    (globalThis as { gc?: () => void }).gc?.();
    requests = [];
    started = performance.now();
    await read();
    const total = performance.now() - started;
    const own = seen.get(name) ?? { totals: [], steps: [], what: [] };
    own.totals.push(total);
    own.steps.push(requests.flatMap((r) => [r.sent, r.answered]));
    own.what = requests.map((r) => r.what);
    seen.set(name, own);
  }
}

const rows: (string | number)[][] = [];
for (const [name, { totals, steps, what }] of seen) {
  const at = (i: number) => median(steps.map((s) => s[i])).toFixed(1);
  const trail = what.map((w, i) => `${w} ${at(2 * i)}→${at(2 * i + 1)}`);
  const last = median(steps.map((s, k) => totals[k] - s[s.length - 1]));
  rows.push([
    name,
    trail.join("; "),
    last.toFixed(1),
    median(totals).toFixed(1),
  ]);
}
printTable(
  [
    "side",
    "requests: sent→answered (ms, medians)",
    "after the last answer",
    `total (median of ${REPS})`,
  ],
  rows,
);

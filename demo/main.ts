/**
 * The repo-fs demo. Without arguments it starts the local repository
 * emulator on a generated sample dataset; with `--host`/`--pid`/`--store`
 * it reads a real repository. Either way it opens the Zarr store through a
 * `RepoFsPool`, reads and decodes every array in the workers, and prints what
 * it read and what it cost the repository.
 *
 *     deno task demo
 *     deno task demo -- --host repo.example.org --pid doi:10.5072/FK2/ABC --store data.zarr [--token-file F]
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { type Emulator, startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { SAMPLE_STORE, sampleDataset } from "../src/emulator/sample.ts";
import { countingFetch } from "./counting_fetch.ts";
import { codeItRan } from "./code_it_ran.ts";

const USAGE =
  `Usage: deno task demo [-- --host H --pid P --store PATH [--token-file F]]
                        [--workers N] [--head-concurrency N] [--latency MS] [--days N]`;

const { values: args } = parseDemoArgs({
  // `deno task demo -- ...` passes the `--` on.
  args: Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args,
  options: {
    host: { type: "string" },
    pid: { type: "string" },
    store: { type: "string" },
    "token-file": { type: "string" },
    workers: { type: "string" },
    "head-concurrency": { type: "string" },
    latency: { type: "string", default: "10" },
    days: { type: "string", default: "240" },
    help: { type: "boolean" },
  },
});
function parseDemoArgs<T extends ParseArgsConfig>(config: T) {
  try {
    return parseArgs(config);
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    Deno.exit(2);
  }
}

if (args.help) {
  console.log(USAGE);
  Deno.exit(0);
}

const workers = Number(
  args.workers ?? Math.min(4, navigator.hardwareConcurrency),
);
const headConcurrency = Number(args["head-concurrency"] ?? 3);
let emu: Emulator | undefined;
let host = args.host;
let pid = args.pid;
let store = args.store;
if (host === undefined) {
  console.log(
    "Starting the repository emulator on a generated sample dataset ...",
  );
  emu = await startEmulator({
    files: await sampleDataset(Number(args.days)),
    faults: { latencyMs: Number(args.latency) },
  });
  ({ host, pid } = emu);
  store = SAMPLE_STORE;
  console.log(
    `  --host ${host} --pid ${pid} (latency ${args.latency} ms per request)\n`,
  );
} else if (pid === undefined || store === undefined) {
  console.error(USAGE);
  Deno.exit(2);
}
const token = args["token-file"]
  ? (await Deno.readTextFile(args["token-file"])).trim()
  : Deno.env.get("REPO_API_TOKEN");

const counting = countingFetch();
const fs = new RepoFs({
  host,
  pid: pid!,
  token,
  headConcurrency,
  fetch: counting.fetch,
});
const started = performance.now();

const all = await fs.find("", { withdirs: true });
console.log(`Dataset ${pid}: ${all.length} entries`);
for (const entry of await fs.ls("")) {
  const detail = entry.type === "directory"
    ? `files below: ${(await fs.find(entry.name)).length}`
    : `${entry.size ?? "?"} bytes`;
  const name = entry.type === "directory" ? `${entry.name}/` : entry.name;
  console.log(`  ${name.padEnd(24)} ${detail}`);
}

const arrays = (await fs.glob(`${store}/**/.zarray`)).map((p) =>
  p.slice(store!.length + 1, -"/.zarray".length)
);
const v3 = await fs.glob(`${store}/**/zarr.json`);
for (const meta of v3) {
  const node = JSON.parse(new TextDecoder().decode(await fs.catFile(meta)));
  if (node.node_type === "array") {
    arrays.push(meta.slice(store!.length + 1, -"/zarr.json".length));
  }
}
console.log(
  `\nReading ${arrays.length} arrays of ${store} with ${workers} workers ...`,
);

{
  await using pool = new RepoFsPool(fs, { workers });
  for (const path of arrays.sort()) {
    const { data, shape } = await getArray(pool, store!, path);
    const values = data as ArrayLike<number>;
    let [min, max, sum, n] = [Infinity, -Infinity, 0, 0];
    for (let i = 0; i < values.length; i++) {
      const v = Number(values[i]);
      if (Number.isNaN(v)) continue;
      if (v < min) min = v;
      if (v > max) max = v;
      sum += v;
      n++;
    }
    console.log(
      `  ${path.padEnd(14)} shape [${shape.join(", ")}]`.padEnd(40) +
        `min ${min.toFixed(2)}  max ${max.toFixed(2)}  mean ${
          (sum / n).toFixed(3)
        }`,
    );
  }
}

const seconds = (performance.now() - started) / 1000;
const c = emu?.counters;
const bytes = c ? c.storeBytes + c.accessBytes : undefined;
const chunkFiles = (await fs.find(store!)).length;
console.log(`\nWhat it cost the repository:`);
const rows: [string, string][] = [
  ["listing requests", String(c?.listingCalls ?? counting.listings)],
  [
    "HEADs (one per file read)",
    `${c?.heads ?? counting.heads} (store has ${chunkFiles} files)`,
  ],
  [
    "peak concurrent HEADs",
    `${
      c?.peakConcurrentHeads ?? counting.peakHeads
    } (limit ${headConcurrency})`,
  ],
  [
    "store requests carrying the token",
    String(c?.storeRequestsWithToken ?? "n/a"),
  ],
  [
    "bytes from the store",
    bytes === undefined
      ? "n/a (workers fetch directly)"
      : `${(bytes / 2 ** 20).toFixed(1)} MiB`,
  ],
  [
    "throughput",
    bytes === undefined
      ? "n/a"
      : `${(bytes / 2 ** 20 / seconds).toFixed(1)} MiB/s`,
  ],
  ["wall time", `${seconds.toFixed(2)} s`],
];
if (c) {
  const floor = (c.heads * Number(args.latency)) / headConcurrency / 1000;
  rows.push([
    "HEAD-budget floor",
    `${floor.toFixed(2)} s (HEADs x latency / headConcurrency)`,
  ]);
}
for (const [name, value] of rows) console.log(`  ${name.padEnd(34)} ${value}`);
console.log(codeItRan(host, pid!, store!, workers));
await emu?.close();

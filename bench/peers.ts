// deno-lint-ignore-file no-import-prefix -- the zip peer, kept out of deno.json
// Issue 36 benchmark: the seven workloads of ~100 MB files against the best
// peer of each, at 20 ms on every request. Ours: `RepoFs` cold, a pool of 2
// cold and warm. Peers reading by range: h5py and Python's zipfile over
// fsspec's HTTPFileSystem (its defaults, and 1 MiB and 32 MiB readahead),
// unzipit, hyparquet's URL reader; peers reading a download: h5py, zipfile,
// hyparquet over the whole file in memory. pyarrow and fastparquet are not
// in Debian and there is no PyPI here: the Parquet peers are JavaScript's.
//
// The emulator runs in a child process (bench/peers_serve.ts) without a
// redirect, so every reader makes one round trip a request through the
// same access URL (no token is set, so none is seen); the Python peers run
// in one long-lived /usr/bin/python3 (bench/peers_read.py), each read cold
// (a new HTTPFileSystem and session). Every side, ours and the peers, is
// measured `--reps` times, the sides alternated; medians; every read's
// values are checked.
//
// Command (from the repository root; needs Debian's python3-aiohttp for
// fsspec's HTTPFileSystem; ~10 min, --quick ~2 min):
//   deno run --allow-net --allow-read --allow-write --allow-env --allow-run bench/peers.ts [--quick]
// Options: --reps=3, --steps=150, --members=1600, --rows=3000000 (--quick:
// 30, 400, 600000); --pools=2,4,8 times only cold pools of those sizes on
// the whole NetCDF4 variable against download + h5py; --python=PATH, a
// python3 with h5py, numpy, fsspec and aiohttp (netCDF4 too, or the file
// is written as plain HDF5 by h5py); --only=netcdf,zip,parquet runs (and
// writes the files of) only those workloads.

import { HTTPRangeReader, unzip } from "npm:unzipit@2.0.0";
import {
  asyncBufferFromUrl,
  parquetReadObjects,
  type ParquetReadOptions,
} from "hyparquet";
import { countFlag, flag } from "./flags.ts";
import { median, printTable } from "./synth_listing.ts";
import { spawnLineServer } from "./child_server.ts";
import { type PeersCounters, spawnPeersServer } from "./peers_serve.ts";
import {
  GRID,
  ROW_GROUP,
  writeNetcdf,
  writeParquetFile,
  writeZip,
  ZIP_TARGET,
} from "./format_files.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { zipTree } from "../zip.ts";
import { readParquet } from "../parquet.ts";

const QUICK = Deno.args.includes("--quick");
const REPS = countFlag("reps", 3);
const STEPS = countFlag("steps", QUICK ? 30 : 150);
const MEMBERS = countFlag("members", QUICK ? 400 : 1600);
const ROWS = countFlag("rows", QUICK ? 600_000 : 3_000_000);
const POOLS = flag("pools", "").split(",").filter(Boolean).map(Number);
const MANY = Math.min(200, MEMBERS >> 1);
const PYTHON = flag("python", "/usr/bin/python3");
const ONLY = flag("only", "netcdf,zip,parquet").split(",");
const MiB = 2 ** 20;

/**
 * One way of reading; resolves to a number that checks what it read, or
 * with its own time when it runs in another process.
 */
interface Side {
  name: string;
  kind: "ours" | "pool" | "range" | "download";
  read: () => Promise<number | { check: number; ms: number }>;
}

interface Workload {
  name: string;
  /** The file it reads. */
  file: string;
  /** The check value, when known without reading; else ours cold gives it. */
  expected?: number;
  /** Our read on any source. */
  ours: (source: RepoFs | RepoFsPool) => Promise<number>;
  peers: Side[];
  /** Peers that cannot run here, with why. */
  missing?: string;
}

const dir = await Deno.makeTempDir({ prefix: "repo-fs-peers-" });
const made = await makeFiles();
await using server = await spawnPeersServer(dir, 20);
await Deno.remove(dir, { recursive: true });
await using python = await spawnLineServer<{ pyarrow: boolean }>(
  PYTHON,
  [new URL("./peers_read.py", import.meta.url).pathname],
  "peers_read.py",
);
const { host, pid, urls } = server.info;
const fresh = () => new RepoFs({ host, pid });

function pythonPeer(
  name: string,
  kind: "range" | "download",
  file: string,
  work: string,
  args: Record<string, unknown>,
  fsspec: { block: number | null; cache: string | null } = {
    block: null,
    cache: null,
  },
): Side {
  const how = kind === "range" ? "fsspec" : "download";
  return {
    name,
    kind,
    read: async () => {
      const answer = await python.ask<{ check?: number; error?: string }>(
        JSON.stringify({ url: urls[file], how, work, args, ...fsspec }),
      );
      if (answer.error !== undefined) {
        throw new Error(`${name}: ${answer.error}`);
      }
      return answer.check!;
    },
  };
}

/** The fsspec settings the Python peers are measured at. */
const FSSPEC = [
  ["defaults (5 MiB blocks)", { block: null, cache: null }],
  ["1 MiB readahead", { block: MiB, cache: "readahead" }],
  ["32 MiB readahead", { block: 32 * MiB, cache: "readahead" }],
] as const;

function netcdf(
  name: string,
  selection: (number | null)[] | null,
  work: string,
  args: Record<string, unknown>,
): Workload {
  return {
    name,
    file: "climate.nc",
    ours: async (source) => {
      const { data } = await getArray(
        source,
        "climate.nc",
        "temperature",
        selection,
      );
      return sum(data as Float32Array);
    },
    peers: [
      ...FSSPEC.map(([setting, options]) =>
        pythonPeer(
          `h5py + fsspec, ${setting}`,
          "range",
          "climate.nc",
          work,
          args,
          options,
        )
      ),
      pythonPeer("download + h5py", "download", "climate.nc", work, args),
    ],
  };
}

function zipMembers(
  name: string,
  names: string[],
  expected: number,
): Workload {
  return {
    name,
    file: "big.zip",
    expected,
    ours: async (source) => {
      const tree = zipTree(source, "big.zip");
      const read = await Promise.all(names.map((n) => tree.catFile(n)));
      return read.reduce((total, bytes) => total + bytes.length, 0);
    },
    peers: [
      ...FSSPEC.map(([setting, options]) =>
        pythonPeer(
          `zipfile + fsspec, ${setting}`,
          "range",
          "big.zip",
          "zip",
          { names },
          options,
        )
      ),
      {
        name: "unzipit",
        kind: "range",
        read: async () => {
          const { entries } = await unzip(new HTTPRangeReader(urls["big.zip"]));
          const read = await Promise.all(
            names.map((n) => entries[n].arrayBuffer()),
          );
          return read.reduce((total, bytes) => total + bytes.byteLength, 0);
        },
      },
      pythonPeer("download + zipfile", "download", "big.zip", "zip", {
        names,
      }),
    ],
  };
}

function parquet(
  name: string,
  [rowStart, rowEnd]: [number, number],
  group: number | null,
  expected: number,
): Workload {
  const options = { columns: ["x"], rowStart, rowEnd };
  const hyparquet = async (file: ParquetReadOptions["file"]) =>
    sumRows(await parquetReadObjects({ file, ...options }));
  return {
    name,
    file: "big.parquet",
    expected,
    ours: async (source) =>
      sumRows(await readParquet(source, "big.parquet", options)),
    peers: [
      {
        name: "hyparquet's URL reader",
        kind: "range",
        read: async () =>
          hyparquet(await asyncBufferFromUrl({ url: urls["big.parquet"] })),
      },
      {
        name: "download + hyparquet",
        kind: "download",
        read: async () =>
          hyparquet(await (await fetch(urls["big.parquet"])).arrayBuffer()),
      },
      ...(python.info.pyarrow
        ? [
          ...[["defaults", null], ["no cache", "none"]].map((
            [setting, cache],
          ) =>
            pythonPeer(
              `pyarrow + fsspec, ${setting}`,
              "range",
              "big.parquet",
              "parquet",
              { group },
              { block: null, cache },
            )
          ),
          pythonPeer(
            "download + pyarrow",
            "download",
            "big.parquet",
            "parquet",
            {
              group,
            },
          ),
        ]
        : []),
    ],
    missing: python.info.pyarrow
      ? undefined
      : "pyarrow + fsspec: not in Debian, no PyPI here",
  };
}

async function makeFiles() {
  const started = performance.now();
  await writeNetcdf(dir, STEPS, PYTHON);
  if (POOLS.length > 0) return {};
  const zip = ONLY.includes("zip")
    ? await writeZip(dir, MEMBERS, PYTHON)
    : undefined;
  const x = ONLY.includes("parquet")
    ? await writeParquetFile(dir, ROWS)
    : undefined;
  console.log(
    `files written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return { zip, x };
}

function sum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i];
  return total;
}

function sumRows(rows: Record<string, unknown>[]): number {
  return sum(rows.map((row) => row.x as number));
}

interface Measured {
  side: Side;
  ms: number[];
  counters: PeersCounters;
}

/** Runs every side `REPS` times, alternated; checks each read. */
async function measure(sides: Side[], expected: number): Promise<Measured[]> {
  const rows = sides.map((side) => ({
    side,
    ms: [] as number[],
    counters: { requests: 0, bytes: 0 },
  }));
  for (let rep = 0; rep < REPS; rep++) {
    for (const row of rows) {
      await server.counters();
      const start = performance.now();
      const read = await row.side.read();
      const own = typeof read === "number" ? undefined : read;
      row.ms.push(own?.ms ?? performance.now() - start);
      const check = own?.check ?? read as number;
      row.counters = await server.counters();
      if (Math.abs(check - expected) > 1e-7 * Math.abs(expected)) {
        throw new Error(`${row.side.name}: ${check}, expected ${expected}`);
      }
    }
  }
  return rows;
}

function ourSides(workload: Workload, warm: RepoFsPool, workers = 2): Side[] {
  return [
    { name: "`RepoFs` cold", kind: "ours", read: () => workload.ours(fresh()) },
    {
      name: `pool of ${workers} cold`,
      kind: "pool",
      read: async () => {
        await using pool = new RepoFsPool(fresh(), { workers });
        return await workload.ours(pool);
      },
    },
    {
      name: `pool of ${workers} warm`,
      kind: "pool",
      read: () => workload.ours(warm),
    },
  ];
}

function detail(title: string, rows: Measured[], size: number): void {
  console.log(`\n${title}`);
  printTable(
    ["side", `median ms (${REPS} runs)`, "requests", "bytes served"],
    rows.map(({ side, ms, counters }) => [
      side.name,
      median(ms).toFixed(0),
      counters.requests,
      `${counters.bytes.toLocaleString("en")} (${
        (100 * counters.bytes / size).toFixed(1)
      } %)`,
    ]),
  );
}

const sizes: Record<string, number> = {};
for (const path of Object.keys(urls)) {
  sizes[path] = (await fresh().info(path)).size ?? 0;
}

if (POOLS.length > 0) await comparePools();
else await compareAll();

/** `--pools`: cold pools of each size against download + h5py. */
async function comparePools(): Promise<void> {
  const whole = netcdf("NetCDF4, whole variable", null, "nc_whole", {});
  const sides: Side[] = [
    ...POOLS.map((workers): Side => ({
      name: `pool of ${workers} cold`,
      kind: "pool",
      read: async () => {
        await using pool = new RepoFsPool(fresh(), { workers });
        return await whole.ours(pool);
      },
    })),
    whole.peers.find((peer) => peer.kind === "download")!,
  ];
  const rows = await measure(sides, await whole.ours(fresh()));
  detail(
    `NetCDF4, whole variable (${STEPS} chunks), ${navigator.hardwareConcurrency} cores`,
    rows,
    sizes["climate.nc"],
  );
  const download = median(rows.at(-1)!.ms);
  for (const { side, ms } of rows.slice(0, -1)) {
    console.log(
      `${side.name} ÷ download + h5py: ${(median(ms) / download).toFixed(2)}×`,
    );
  }
}

/** The seven workloads, then the summary table. */
async function compareAll(): Promise<void> {
  const { zip, x } = made;
  const groups = Math.ceil(ROWS / ROW_GROUP);
  const middle = Math.floor(groups / 2) * ROW_GROUP;
  const end = Math.min(ROWS, middle + ROW_GROUP);
  const firstBlob = (MEMBERS - MANY) >> 1;
  const step = STEPS >> 1;
  const [lat, lon] = [GRID[0] >> 1, GRID[1] >> 1];
  const workloads = [
    ...ONLY.includes("netcdf") ? netcdfWorkloads() : [],
    ...zip ? zipWorkloads(zip) : [],
    ...x ? parquetWorkloads(x) : [],
  ];
  function netcdfWorkloads() {
    return [
      netcdf("NetCDF4, one time step", [step, null, null], "nc_step", { step }),
      netcdf(`NetCDF4, whole variable (${STEPS} chunks)`, null, "nc_whole", {}),
      netcdf("NetCDF4, a point's time series", [null, lat, lon], "nc_point", {
        lat,
        lon,
      }),
    ];
  }
  function zipWorkloads(zip: { blobs: string[]; target: Uint8Array }) {
    const blobs = zip.blobs.slice(firstBlob, firstBlob + MANY);
    return [
      zipMembers("zip, one member", [ZIP_TARGET], zip.target.length),
      zipMembers(
        `zip, ${MANY} of ${MEMBERS + 1} members`,
        blobs,
        MANY * 65_536,
      ),
    ];
  }
  function parquetWorkloads(x: Float64Array) {
    return [
      parquet(
        "Parquet, one column chunk",
        [middle, end],
        middle / ROW_GROUP,
        sum(x.subarray(middle, end)),
      ),
      parquet(
        `Parquet, one column, ${groups} row groups`,
        [0, ROWS],
        null,
        sum(x),
      ),
    ];
  }
  const summary: (string | number)[][] = [];
  for (const workload of workloads) {
    const expected = workload.expected ?? await workload.ours(fresh());
    await using warm = new RepoFsPool(fresh(), { workers: 2 });
    await workload.ours(warm);
    const rows = await measure(
      [...ourSides(workload, warm), ...workload.peers],
      expected,
    );
    detail(workload.name, rows, sizes[workload.file]);
    summary.push(summaryRow(workload, rows));
  }
  console.log(
    `\n${
      QUICK ? "--quick: " : ""
    }medians of ${REPS} runs, ms; 20 ms a request; ${navigator.hardwareConcurrency} cores`,
  );
  printTable([
    `workload (${
      Object.entries(sizes).map(([p, s]) => `${p} ${(s / MiB).toFixed(0)} MiB`)
        .join(", ")
    })`,
    "`RepoFs` cold",
    "best peer reading by range",
    "ours ÷ it",
    "best of all peers",
    "ours ÷ it",
    "pool of 2 cold / warm",
  ], summary);
}

/** The issue's row: ours, the best peer by range and of all, the pool. */
function summaryRow(workload: Workload, rows: Measured[]): (string | number)[] {
  const ms = (row: Measured) => median(row.ms);
  const ours = ms(rows[0]);
  const best = (kinds: Side["kind"][]) =>
    rows.filter((row) => kinds.includes(row.side.kind))
      .reduce((a, b) => ms(a) <= ms(b) ? a : b);
  const range = best(["range"]);
  const all = best(["range", "download"]);
  const ratio = (row: Measured) => `${(ours / ms(row)).toFixed(2)}×`;
  return [
    workload.name,
    ours.toFixed(0),
    `${range.side.name}, ${ms(range).toFixed(0)}${
      workload.missing ? ` (${workload.missing})` : ""
    }`,
    ratio(range),
    all === range ? "same" : `${all.side.name}, ${ms(all).toFixed(0)}`,
    ratio(all),
    `${ms(rows[1]).toFixed(0)} / ${ms(rows[2]).toFixed(0)}`,
  ];
}

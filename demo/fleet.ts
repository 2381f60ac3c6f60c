/**
 * A fleet of processes reading one Zarr array between them: each takes its
 * share of the array's chunk grid with `chunkShard`, reads it with
 * `getArray`, and reports the count, sum, minimum and maximum of its values;
 * the shares are disjoint and together cover the array, so the reports
 * combine into the statistics of the whole array.
 *
 * One process per share, as a job array runs it (`--shard I/N`, or
 * `--shard auto` under Slurm or a Kubernetes Indexed Job), printing its
 * report as one JSON line:
 *
 *     deno run --allow-net --allow-read --allow-env demo/fleet.ts \
 *       --host repo.example.org --pid doi:10.5072/FK2/ABC --store climate.zarr --array temperature --shard 0/4
 *
 * Or N processes started by this script, their reports combined (without
 * `--host`, on the sample dataset served by the local emulator):
 *
 *     deno run --allow-net --allow-read --allow-env --allow-run demo/fleet.ts --shards 4
 *
 * Each process lists the dataset itself. Given `--coordinator redis://…`
 * (or `REPO_FS_COORDINATOR`), passed to every process, they share one HEAD
 * budget and one URL cache; without it each resolves its own content URLs.
 * The API token, if any, comes from `REPO_API_TOKEN`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import {
  parseShard,
  redisCoordinator,
  type Shard,
  shardFromEnvironment,
} from "../fleet.ts";
import { startEmulator } from "../emulator.ts";
import { chunkShard, getArray, zarrStore } from "../zarr.ts";
import { SAMPLE_STORE, sampleDataset } from "../src/emulator/sample.ts";

const USAGE =
  `Usage: demo/fleet.ts [--host H --pid P --store PATH] [--array NAME]
                      (--shard I/N | --shard auto | --shards N)
                      [--coordinator URL] [--workers N] [--days N] [--json]`;

/** What one share reports. */
interface Stats {
  shard: string;
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
}

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    host: { type: "string" },
    pid: { type: "string" },
    store: { type: "string", default: SAMPLE_STORE },
    array: { type: "string", default: "temperature" },
    shard: { type: "string" },
    shards: { type: "string" },
    coordinator: { type: "string" },
    workers: { type: "string", default: "2" },
    days: { type: "string", default: "64" },
    json: { type: "boolean" },
  },
});

if (args.shard !== undefined && args.host !== undefined) {
  let shard: Shard;
  try {
    shard = args.shard === "auto"
      ? shardFromEnvironment(Deno.env.toObject())
      : parseShard(args.shard);
  } catch (error) {
    console.error(`fleet.ts: ${(error as Error).message}\n${USAGE}`);
    Deno.exit(2);
  }
  console.log(JSON.stringify(await readShare(shard)));
} else if (args.shards !== undefined) {
  await runFleet(Number(args.shards));
} else {
  console.error(USAGE);
  Deno.exit(2);
}

/** This process's share of the array, read and summed up. */
async function readShare(shard: Shard): Promise<Stats> {
  const coordinator = args.coordinator ||
    Deno.env.get("REPO_FS_COORDINATOR");
  const fs = new RepoFs({
    host: args.host!,
    pid: args.pid!,
    token: Deno.env.get("REPO_API_TOKEN") || undefined,
    coordinator: coordinator ? redisCoordinator(coordinator) : undefined,
  });
  const store = await zarr.withMaybeConsolidatedMetadata(
    zarrStore(fs, args.store),
  );
  const array = await zarr.open(zarr.root(store).resolve(args.array), {
    kind: "array",
  });
  const selection = chunkShard(array.shape, array.chunks, shard);
  const stats: Stats = {
    shard: `${shard.index}/${shard.count}`,
    count: 0,
    sum: 0,
    min: null,
    max: null,
  };
  if (selection[0]!.start === selection[0]!.stop) return stats; // more shares than chunks
  await using pool = new RepoFsPool(fs, { workers: Number(args.workers) });
  const { data } = await getArray(pool, args.store, args.array, selection);
  const values = data as ArrayLike<number>;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    stats.count++;
    stats.sum += value;
    stats.min = Math.min(stats.min ?? value, value);
    stats.max = Math.max(stats.max ?? value, value);
  }
  return stats;
}

/** Starts `count` processes of this script, one per share, and combines their reports. */
async function runFleet(count: number): Promise<void> {
  await using emu = args.host === undefined
    ? await startEmulator({ files: await sampleDataset(Number(args.days)) })
    : undefined;
  const [host, pid] = emu ? [emu.host, emu.pid] : [args.host!, args.pid!];
  const shares = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const { code, stdout } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "--allow-net",
          "--allow-read",
          "--allow-env",
          import.meta.filename!,
          ...["--host", host, "--pid", pid, "--store", args.store],
          ...["--array", args.array, "--workers", args.workers],
          ...["--shard", `${index}/${count}`],
          ...(args.coordinator ? ["--coordinator", args.coordinator] : []),
        ],
        stdin: "null",
        stderr: "inherit",
      }).output();
      if (code !== 0) throw new Error(`share ${index}/${count} exited ${code}`);
      return JSON.parse(new TextDecoder().decode(stdout)) as Stats;
    }),
  );
  const known = (values: (number | null)[]) =>
    values.filter((value) => value !== null);
  const combined = {
    count: shares.reduce((sum, share) => sum + share.count, 0),
    sum: shares.reduce((sum, share) => sum + share.sum, 0),
    min: Math.min(...known(shares.map((share) => share.min))),
    max: Math.max(...known(shares.map((share) => share.max))),
  };
  if (args.json) {
    console.log(JSON.stringify({ shares, combined }));
    return;
  }
  for (const share of [...shares, { shard: "all", ...combined }]) {
    console.log(
      `${share.shard.padEnd(6)} ${String(share.count).padStart(10)} values  ` +
        `mean ${
          (share.sum / share.count).toFixed(3)
        }  min ${share.min}  max ${share.max}`,
    );
  }
}

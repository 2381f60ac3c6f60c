// Issue 13 part 3 benchmark: does a second process start warm? Reads EVERY
// chunk of the bench/zarr_serve.ts array with `getArray` from `RepoFs`
// alone at 20 ms emulator latency, each read in a `deno run` process of
// its own:
//   cold          a fresh process and an empty `urlCacheDir`: every file
//                 needs its HEAD; the process writes the cache as it exits
//   warm          the same process and instance read again (URLs in memory)
//   second run    a new process with the same `urlCacheDir`: its first read
//                 (listing included) takes the URLs from the file
// Times are of the read inside the process, not of Deno's start-up.
//
// Command (from the repository root; about a minute):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run=deno bench/url_cache.ts
// Options: --rows=2000 --side=128 (shape [rows, side, side], chunks
// [1, side, side]), --reps=3 (warm reads and second runs), --latency=20.

import { countFlag, flag } from "./flags.ts";
import { RepoFs } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { median, printTable } from "./synth_listing.ts";
import {
  ARRAY_PATH,
  checksum,
  spawnZarrServer,
  ZARR_ROOT,
} from "./zarr_serve.ts";

/** What one reader process prints: its read times in ms, first read first. */
interface ReaderReport {
  readsMs: number[];
}

if (flag("reader", "") !== "") {
  // A reader process: --reader=HOST --pid=P --dir=D --reads=N --checksum=C
  const fs = new RepoFs({
    host: flag("reader", ""),
    pid: flag("pid", ""),
    urlCacheDir: flag("dir", ""),
  });
  const readsMs: number[] = [];
  for (let read = 0; read < countFlag("reads", 1); read++) {
    const started = performance.now();
    const { data } = await getArray(fs, ZARR_ROOT, ARRAY_PATH);
    readsMs.push(performance.now() - started);
    if (String(checksum(data as Float32Array)) !== flag("checksum", "")) {
      throw new Error("the array read back differs from the one written");
    }
  }
  console.log(JSON.stringify({ readsMs } satisfies ReaderReport));
} else {
  const reps = countFlag("reps", 3);
  const latency = Number(flag("latency", "20"));
  await using server = await spawnZarrServer({
    rows: countFlag("rows", 2000),
    side: countFlag("side", 128),
  });
  const { info } = server;
  await server.setLatency(latency);
  const dir = await Deno.makeTempDir({ prefix: "url_cache_bench_" });

  /** One reader process; its reads and the HEADs they sent. */
  const reader = async (reads: number) => {
    await server.reset();
    const output = await new Deno.Command("deno", {
      args: [
        "run",
        "--allow-net=127.0.0.1",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        new URL(import.meta.url).pathname,
        `--reader=${info.host}`,
        `--pid=${info.pid}`,
        `--dir=${dir}`,
        `--reads=${reads}`,
        `--checksum=${info.checksum}`,
      ],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!output.success) throw new Error(`a reader exited ${output.code}`);
    const report: ReaderReport = JSON.parse(
      new TextDecoder().decode(output.stdout),
    );
    return { readsMs: report.readsMs, heads: (await server.counters()).heads };
  };

  console.log(
    `# url_cache.ts ${
      Deno.args.join(" ")
    }: ${info.chunkFiles} chunks, ${latency} ms latency`,
  );
  const first = await reader(1 + reps);
  const [coldMs, ...warmMs] = first.readsMs;
  const second: { ms: number; heads: number }[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const { readsMs, heads } = await reader(1);
    second.push({ ms: readsMs[0], heads });
  }
  await Deno.remove(dir, { recursive: true });

  const warm = median(warmMs);
  const secondMs = median(second.map(({ ms }) => ms));
  const s = (ms: number) => (ms / 1000).toFixed(2);
  const spread = (values: number[]) =>
    `${s(median(values))} (${s(Math.min(...values))}–${
      s(Math.max(...values))
    })`;
  printTable(["read", "s", "HEADs", "× warm"], [
    [
      "cold (new process, empty cache dir)",
      s(coldMs),
      first.heads,
      `${(coldMs / warm).toFixed(2)}×`,
    ],
    [`warm (same process, median of ${reps})`, spread(warmMs), "—", "1.00×"],
    [
      `second run (new process, same cache dir, median of ${reps})`,
      spread(second.map(({ ms }) => ms)),
      second.map(({ heads }) => heads).join(", "),
      `${(secondMs / warm).toFixed(2)}×`,
    ],
  ]);
  console.log(
    "\nThe cold process's HEADs include any its warm reads sent; the second runs' are per process.",
  );
}

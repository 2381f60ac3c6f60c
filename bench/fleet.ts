// Issue 14 benchmark: a fleet of `repo-fs get '**' --shard i/P` processes
// against one emulator at 20 ms latency, with and without a coordinator
// (a `redis-server` of its own, fresh for each run). For P = 1, 2 and 4:
// wall time (from the first process started to the last one ended, Deno's
// start-up included), HEADs the repository received in all, and the peak of
// HEADs in flight at once. Without the coordinator each process keeps its
// own budget of 3 (the peak can reach 3 × P); with it the fleet shares 3.
//
// Command (from the repository root; about two minutes):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run bench/fleet.ts
// Options: --files=2000, --latency=20 (ms), --size=256 (bytes per file).

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countFlag } from "./flags.ts";
import { printTable } from "./synth_listing.ts";
import { startEmulator } from "../emulator.ts";
import { hasRedis, startRedis } from "../tests/redis_server.ts";

const CLI = fileURLToPath(new URL("../cli.ts", import.meta.url));

/** What one fleet run cost. */
interface FleetRun {
  seconds: number;
  heads: number;
  peak: number;
}

/** Runs `processes` sharded `get`s at once, with `coordinator` when given. */
async function fleet(
  host: string,
  pid: string,
  out: string,
  processes: number,
  coordinator?: string,
): Promise<number> {
  const started = performance.now();
  const runs = Array.from({ length: processes }, async (_, i) => {
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        CLI,
        "--host",
        host,
        "--pid",
        pid,
        "get",
        "**",
        "--shard",
        `${i}/${processes}`,
        "--out",
        out,
        ...(coordinator ? ["--coordinator", coordinator] : []),
      ],
      env: { REPO_API_TOKEN: "", NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
    }).output();
    if (code !== 0) {
      throw new Error(
        `shard ${i}: exit ${code}: ${new TextDecoder().decode(stderr)}`,
      );
    }
  });
  await Promise.all(runs);
  return (performance.now() - started) / 1000;
}

if (import.meta.main) {
  if (!(await hasRedis())) Deno.exit(1);
  const count = countFlag("files", 2000);
  const latencyMs = countFlag("latency", 20);
  const size = countFlag("size", 256);
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    files[`part${i % 20}/file${i}.bin`] = new Uint8Array(size).fill(i & 255);
  }
  await using emu = await startEmulator({ files, faults: { latencyMs } });
  const tmp = await Deno.makeTempDir();
  const rows: (string | number)[][] = [];
  try {
    for (const processes of [1, 2, 4]) {
      for (const withCoordinator of [false, true]) {
        emu.resetCounters();
        const out = join(tmp, `${processes}-${withCoordinator}`);
        let run: FleetRun;
        if (withCoordinator) {
          await using server = await startRedis();
          const seconds = await fleet(
            emu.host,
            emu.pid,
            out,
            processes,
            server.url,
          );
          run = {
            seconds,
            heads: emu.counters.heads,
            peak: emu.counters.peakConcurrentHeads,
          };
        } else {
          const seconds = await fleet(emu.host, emu.pid, out, processes);
          run = {
            seconds,
            heads: emu.counters.heads,
            peak: emu.counters.peakConcurrentHeads,
          };
        }
        rows.push([
          processes,
          withCoordinator ? "yes" : "no",
          run.seconds.toFixed(1),
          run.heads,
          run.peak,
        ]);
        console.error(`done: ${rows.at(-1)!.join(", ")}`);
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
  console.log(
    `${count} files of ${size} B, ${latencyMs} ms latency, head-concurrency 3, --parallel 8 (default)\n`,
  );
  printTable(
    ["processes", "coordinator", "wall s", "HEADs", "peak concurrent HEADs"],
    rows,
  );
}

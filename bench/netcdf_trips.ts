/**
 * The requests of one cold NetCDF4 step, in order, with when each started
 * and ended: `getArray(new RepoFs(...), "climate.nc", "temperature",
 * [step, null, null])` on bench/format_files.ts's climate.nc, the emulator
 * at `--latency` ms a request without a redirect (as bench/peers.ts serves).
 *
 *     deno run -A bench/netcdf_trips.ts [--steps=30] [--latency=20] [--reps=3]
 *
 * @module
 */

import { countFlag, flag } from "./flags.ts";
import { writeNetcdf } from "./format_files.ts";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { getArray } from "../zarr.ts";

const STEPS = countFlag("steps", 30);
const REPS = countFlag("reps", 3);
const LATENCY = Number(flag("latency", "20"));

const dir = await Deno.makeTempDir({ prefix: "repo-fs-trips-" });
await writeNetcdf(dir, STEPS, flag("python", "/usr/bin/python3"));
const file = await Deno.readFile(`${dir}/climate.nc`);
await Deno.remove(dir, { recursive: true });

let t0 = 0;
const log: string[] = [];
await using emu = await startEmulator({
  files: { "climate.nc": file },
  faults: {
    latencyMs: LATENCY,
    redirect: false,
    respond: async (request, info) => {
      const start = performance.now() - t0;
      const answer = await info.next();
      const range = request.headers.get("range") ?? "";
      log.push(
        `${start.toFixed(1).padStart(7)} → ${
          (performance.now() - t0).toFixed(1).padStart(7)
        } ms  ${request.method} ${info.route} ${range}`,
      );
      return answer;
    },
  },
});

for (let rep = 0; rep < REPS; rep++) {
  log.length = 0;
  t0 = performance.now();
  const { data } = await getArray(
    new RepoFs({ host: emu.host, pid: emu.pid }),
    "climate.nc",
    "temperature",
    [STEPS >> 1, null, null],
  );
  const total = performance.now() - t0;
  console.log(
    `\nrun ${rep + 1}: ${total.toFixed(1)} ms, ${log.length} requests, ${
      (data as Float32Array).length
    } values`,
  );
  console.log(log.join("\n"));
}

// Issue 35 benchmark: one time step of a ~100 MiB classic NetCDF file
// (CDF-2, a record variable whose records interleave with its time axis's)
// at 20 ms emulator latency, read through `getArray` on the file (netcdfStore,
// in a pool of 2 and by RepoFs alone), against downloading the whole file and
// reading the same step from the bytes in memory. Every side starts cold (a
// fresh RepoFs: one HEAD, the listing); each is measured `--reps` times,
// alternating. Wall time and bytes from the store.
//
// Command (from the repository root; writes the file with Debian's python3
// and netCDF4 into a temporary directory first; about a minute):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run bench/netcdf_classic.ts
// Options: --steps=100 (records of 360 × 720 float32), --reps=3.

import * as zarr from "zarrita";
import { countFlag } from "./flags.ts";
import { median } from "./synth_listing.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { netcdfStore } from "../netcdf.ts";

const STEPS = countFlag("steps", 100);
const REPS = countFlag("reps", 3);
const STEP = Math.floor(STEPS / 2);

const dir = await Deno.makeTempDir();
const file = `${dir}/ocean.nc`;
const script = `
import netCDF4, numpy as np
rng = np.random.default_rng(1)
with netCDF4.Dataset("${file}", "w", format="NETCDF3_64BIT_OFFSET") as ds:
    ds.createDimension("time", None)
    ds.createDimension("lat", 360)
    ds.createDimension("lon", 720)
    time = ds.createVariable("time", "f8", ("time",))
    time.units = "days since 2000-01-01"
    t = ds.createVariable("temperature", "f4", ("time", "lat", "lon"))
    t.units = "K"
    for i in range(${STEPS}):
        time[i] = i
        t[i] = rng.random((360, 720), dtype="f4") * 40 + 250
`;
const made = await new Deno.Command("/usr/bin/python3", {
  args: ["-c", script],
}).output();
if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
const bytes = await Deno.readFile(file);
await Deno.remove(dir, { recursive: true });
console.log(
  `ocean.nc: ${
    (bytes.length / 2 ** 20).toFixed(1)
  } MiB, CDF-2, ${STEPS} records of 360 × 720 float32 and their time`,
);

await using emu = await startEmulator({
  files: { "ocean.nc": bytes },
  faults: { latencyMs: 20 },
});

const SELECTION = [STEP, null, null];

async function pooled(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const { data } = await getArray(pool, "ocean.nc", "temperature", SELECTION);
  return (data as Float32Array)[0];
}

async function alone(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { data } = await getArray(fs, "ocean.nc", "temperature", SELECTION);
  return (data as Float32Array)[0];
}

async function downloaded(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole = await fs.catFile("ocean.nc");
  const local = {
    info: () =>
      Promise.resolve({
        name: "ocean.nc",
        type: "file" as const,
        size: whole.length,
      }),
    catFile: (_: string, o: { start?: number; end?: number } = {}) =>
      Promise.resolve(whole.subarray(o.start ?? 0, o.end)),
  };
  const arr = await zarr.open(
    zarr.root(netcdfStore(local, "ocean.nc")).resolve("temperature"),
    { kind: "array" },
  );
  const { data } = await zarr.get(arr, SELECTION);
  return (data as Float32Array)[0];
}

const rows: Record<string, { ms: number[]; bytes: number; gets: number }> = {};
for (let rep = 0; rep < REPS; rep++) {
  for (
    const [name, read] of [
      ["getArray, pool of 2", pooled],
      ["getArray, RepoFs alone", alone],
      ["download, then read", downloaded],
    ] as const
  ) {
    emu.resetCounters();
    const start = performance.now();
    const first = await read();
    const ms = performance.now() - start;
    const row = rows[name] ??= { ms: [], bytes: 0, gets: 0 };
    row.ms.push(ms);
    row.bytes = emu.counters.storeBytes;
    row.gets = emu.counters.storeGets;
    if (!(first >= 250 && first < 290)) {
      throw new Error(`${name}: read ${first}`);
    }
  }
}
console.log(
  `| read of step ${STEP} | median ms (${REPS} runs) | bytes from the store | store GETs |`,
);
console.log("|---|---|---|---|");
for (const [name, { ms, bytes: fetched, gets }] of Object.entries(rows)) {
  console.log(
    `| ${name} | ${median(ms).toFixed(0)} | ${fetched} (${
      (100 * fetched / bytes.length).toFixed(2)
    } %) | ${gets} |`,
  );
}

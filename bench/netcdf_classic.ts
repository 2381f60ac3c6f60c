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
import { compareColdReads, memorySource } from "./cold_reads.ts";
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

/** Reads step `STEP` through `source` and checks its first value is of the range written. */
async function step(source: RepoFs | RepoFsPool): Promise<void> {
  const { data } = await getArray(source, "ocean.nc", "temperature", SELECTION);
  checked((data as Float32Array)[0]);
}

function checked(first: number): void {
  if (!(first >= 250 && first < 290)) throw new Error(`read ${first}`);
}

await compareColdReads(emu, [
  {
    name: "getArray, pool of 2",
    read: async () => {
      await using pool = new RepoFsPool(
        new RepoFs({ host: emu.host, pid: emu.pid }),
        { workers: 2 },
      );
      await step(pool);
    },
  },
  {
    name: "getArray, RepoFs alone",
    read: () => step(new RepoFs({ host: emu.host, pid: emu.pid })),
  },
  {
    name: "download, then read",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      const local = memorySource("ocean.nc", await fs.catFile("ocean.nc"));
      const arr = await zarr.open(
        zarr.root(netcdfStore(local, "ocean.nc")).resolve("temperature"),
        { kind: "array" },
      );
      checked(((await zarr.get(arr, SELECTION)).data as Float32Array)[0]);
    },
  },
], { reps: REPS, fileSize: bytes.length, what: `read of step ${STEP}` });

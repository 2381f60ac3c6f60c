// Issue 31 benchmark: one time step of one variable of a ~100 MiB NetCDF4
// file at 20 ms emulator latency, read through `getArray` on the file
// (hdf5Store's references, decoded in a pool of 2, and by RepoFs alone), against downloading the
// whole file and reading the same step from the bytes in memory. Both sides
// start cold (a fresh RepoFs: one HEAD, the listing); each is measured
// `--reps` times, alternating. Wall time and bytes from the store.
//
// Command (from the repository root; writes the file with Debian's python3
// and netCDF4 into a temporary directory first; about a minute):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run bench/hdf5_slice.ts
// Options: --steps=150 (time steps of 360 × 720 float32, zlib level 1), --reps=3.

import * as zarr from "zarrita";
import { countFlag } from "./flags.ts";
import { writeNetcdf } from "./format_files.ts";
import { median } from "./synth_listing.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { hdf5Store } from "../hdf5.ts";

const STEPS = countFlag("steps", 150);
const REPS = countFlag("reps", 3);
const STEP = Math.floor(STEPS / 2);

const dir = await Deno.makeTempDir();
const file = `${dir}/climate.nc`;
await writeNetcdf(dir, STEPS);
const bytes = await Deno.readFile(file);
await Deno.remove(dir, { recursive: true });
console.log(
  `climate.nc: ${
    (bytes.length / 2 ** 20).toFixed(1)
  } MiB, ${STEPS} steps of 360 × 720 float32 (zlib)`,
);

await using emu = await startEmulator({
  files: { "climate.nc": bytes },
  faults: { latencyMs: 20 },
});

async function sliced(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const { data } = await getArray(pool, "climate.nc", "temperature", [
    STEP,
    null,
    null,
  ]);
  return (data as Float32Array)[0];
}

async function alone(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { data } = await getArray(fs, "climate.nc", "temperature", [
    STEP,
    null,
    null,
  ]);
  return (data as Float32Array)[0];
}

async function downloaded(): Promise<number> {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole = await fs.catFile("climate.nc");
  const local = {
    info: () =>
      Promise.resolve({
        name: "climate.nc",
        type: "file" as const,
        size: whole.length,
      }),
    catFile: (_: string, o: { start?: number; end?: number } = {}) =>
      Promise.resolve(whole.subarray(o.start ?? 0, o.end)),
  };
  const arr = await zarr.open(
    zarr.root(hdf5Store(local, "climate.nc")).resolve("temperature"),
    {
      kind: "array",
    },
  );
  const { data } = await zarr.get(arr, [STEP, null, null]);
  return (data as Float32Array)[0];
}

const rows: Record<string, { ms: number[]; bytes: number; gets: number }> = {};
for (let rep = 0; rep < REPS; rep++) {
  for (
    const [name, read] of [
      ["getArray, pool of 2", sliced],
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

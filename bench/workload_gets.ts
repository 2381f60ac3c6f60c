/**
 * Store GETs of the workloads of issue 36's request-count tests: one step
 * of a NetCDF4 variable cold and again on the same `RepoFs`, one step with
 * a cold pool of 2, the 10,000-chunk HDF5 file whole, a Parquet read cold
 * and again.
 *
 *     deno run -A bench/workload_gets.ts
 *
 * @module
 */

import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { readParquet } from "../parquet.ts";

const fixture = (path: string) =>
  Deno.readFile(new URL(`../fixtures/${path}`, import.meta.url));
await using emu = await startEmulator({
  files: {
    "x.nc": await fixture("hdf5/big_chunks.nc"),
    "m.h5": await fixture("hdf5/many_chunks.h5"),
    "r.nc": await fixture("real/netcdf-c/ref_nc_test_netcdf4_4_0.nc"),
    "t.parquet": await fixture("parquet/stations.snappy.parquet"),
  },
});
const fresh = async () => {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("x.nc");
  emu.resetCounters();
  return fs;
};
const gets = () => {
  const n = emu.counters.storeGets;
  emu.resetCounters();
  return n;
};
const counts: Record<string, number> = {};

let fs = await fresh();
await getArray(fs, "x.nc", "field", [0]);
counts["NetCDF4 step, cold"] = gets();
await getArray(fs, "x.nc", "field", [4]);
counts["NetCDF4 another step, same RepoFs"] = gets();

fs = await fresh();
{
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await pool.info("x.nc");
  gets();
  await getArray(pool, "x.nc", "field", [3]);
  counts["NetCDF4 step, cold pool of 2"] = gets();
}

fs = await fresh();
await getArray(fs, "m.h5", "grid");
counts["many_chunks.h5 whole"] = gets();

fs = await fresh();
const store = (await import("../netcdf.ts")).netcdfStore(fs, "r.nc");
const zmetadata = JSON.parse(
  new TextDecoder().decode(await store.get("/.zmetadata")),
).metadata as Record<string, unknown>;
for (const key of Object.keys(zmetadata)) {
  if (!key.endsWith(".zarray")) continue;
  const name = key.slice(0, -".zarray".length).replace(/\/$/, "");
  await getArray(fs, "r.nc", name).catch(() => undefined);
}
counts["ref_nc_test_netcdf4_4_0.nc, its listing and every variable"] = gets();

fs = await fresh();
await readParquet(fs, "t.parquet", { rowStart: 0, rowEnd: 10 });
counts["Parquet 10 rows, cold"] = gets();
await readParquet(fs, "t.parquet", { rowStart: 0, rowEnd: 10 });
counts["Parquet 10 rows, again"] = gets();

for (const [name, n] of Object.entries(counts)) console.log(`${n}\t${name}`);

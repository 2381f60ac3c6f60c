import { deepStrictEqual, equal } from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";

const fixture = (path: string) =>
  Deno.readFile(new URL(`../fixtures/${path}`, import.meta.url));

Deno.test("one step of a chunked NetCDF4 file cold is 2 store GETs: its first 256 KiB, then the chunk", async () => {
  // big_chunks.nc: float32 `field` of 6 × 256 × 256, one chunk a step, valued by index.
  await using emu = await startEmulator({
    files: { "x.nc": await fixture("hdf5/big_chunks.nc") },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("x.nc");
  emu.resetCounters();
  const { data } = await getArray(fs, "x.nc", "field", [2]);
  deepStrictEqual(
    data,
    Float32Array.from({ length: 256 * 256 }, (_, i) => 2 * 256 * 256 + i),
  );
  equal(emu.counters.storeGets, 2);
  equal(emu.counters.heads, 1);
});

Deno.test("a NetCDF4 file a little longer than the first read opens and reads a variable in one store GET", async () => {
  // 267 KB; netCDF-C wrote a heap block and a header continuation past the first 256 KiB.
  const name = "netcdf4-python/20171025_2056.Cloud_Top_Height.nc";
  const bytes = await fixture(`real/${name}`);
  const expected = JSON.parse(
    await Deno.readTextFile(
      new URL("../fixtures/real/expected.json", import.meta.url),
    ),
  )[name].variables.HT;
  await using emu = await startEmulator({ files: { "c.nc": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("c.nc");
  emu.resetCounters();
  const { data, shape } = await getArray(fs, "c.nc", "HT");
  deepStrictEqual(shape, expected.shape);
  // What h5py read (fixtures/real/expected.json).
  equal((data as Int16Array).reduce((a, b) => a + b, 0), expected.sum);
  equal(emu.counters.storeGets, 1);
  equal(emu.counters.storeBytes, bytes.length);
});

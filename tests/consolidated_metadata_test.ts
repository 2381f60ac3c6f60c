// hdf5Store and netcdfStore serve `.zmetadata`, so zarrita's
// withConsolidatedMetadata lists a file's variables (as the explorer does).

import { deepStrictEqual } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { hdf5Store } from "../hdf5.ts";
import { netcdfStore } from "../netcdf.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);

Deno.test("consolidated metadata lists every variable of NetCDF4 and classic files", async () => {
  await using emu = await startEmulator({
    files: {
      "a.nc": await Deno.readFile(new URL("hdf5/netcdf4.nc", FIXTURES)),
      "c.nc": await Deno.readFile(new URL("netcdf/classic.nc", FIXTURES)),
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const arrays = async (store: zarr.AsyncReadable) =>
    (await zarr.withConsolidatedMetadata(store)).contents()
      .filter((c) => c.kind === "array").map((c) => c.path).sort();
  const expected = JSON.parse(
    await Deno.readTextFile(new URL("netcdf/expected.json", FIXTURES)),
  );
  deepStrictEqual(
    await arrays(netcdfStore(fs, "c.nc")),
    Object.keys(expected["classic.nc"].variables).map((v) => `/${v}`).sort(),
  );
  const hdf5 = await arrays(hdf5Store(fs, "a.nc"));
  deepStrictEqual(await arrays(netcdfStore(fs, "a.nc")), hdf5);
  for (const path of hdf5) {
    const arr = await zarr.open(
      zarr.root(hdf5Store(fs, "a.nc")).resolve(path),
      { kind: "array" },
    );
    deepStrictEqual(arr.path, path);
  }
  deepStrictEqual(
    hdf5.includes("/forecast/precip") && hdf5.includes("/temperature"),
    true,
  );
});

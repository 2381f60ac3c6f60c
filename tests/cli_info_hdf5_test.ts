import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { type CliRun, runCli } from "./support.ts";

const HDF5 = new URL("../fixtures/hdf5/", import.meta.url);
const ZIPS = new URL("../fixtures/zip/", import.meta.url);
interface ExpectedVariable {
  shape: number[];
  dtype: string;
  chunks?: number[] | null;
  dimensions?: string[];
}
const expected = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", HDF5)),
) as Record<string, Record<string, ExpectedVariable>>;

interface Variable {
  path: string;
  shape: number[];
  dtype: string;
  chunks: number[] | null;
  dimensions?: string[];
  codecs: string[];
}
interface Info {
  name: string;
  type: string;
  variables?: Variable[];
  problems?: { path: string; reason: string }[];
}

async function setup() {
  const nc = await Deno.readFile(new URL("netcdf4.nc", HDF5));
  const h5 = await Deno.readFile(new URL("h5py.h5", HDF5));
  const emu = await startEmulator({
    files: {
      "climate.nc": nc,
      "h5py.h5": h5,
      "no_suffix.dat": h5, // not named as HDF5: not read
      "notes.txt": "just text\n",
      "classic.nc": "CDF\x01 a NetCDF-3 header, not HDF5",
      "broken.h5": "neither HDF5 nor NetCDF, whatever the name says",
      "plain.zip": await Deno.readFile(new URL("plain.zip", ZIPS)),
    },
  });
  return {
    emu,
    cli: (...args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, ...args]),
    [Symbol.asyncDispose]: () => emu.close(),
  };
}

function info(run: CliRun): Info {
  equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Info;
}

Deno.test("info of a NetCDF4 file lists every variable with its shape, dtype and dimensions", async () => {
  await using t = await setup();
  const got = info(await t.cli("--json", "info", "climate.nc"));
  equal(got.name, "climate.nc");
  const want = expected["netcdf4.nc"];
  deepStrictEqual(
    got.variables!.map((v) => v.path),
    Object.keys(want).sort(),
  );
  for (const v of got.variables!) {
    deepStrictEqual(
      { shape: v.shape, dtype: v.dtype, dimensions: v.dimensions ?? [] },
      {
        shape: want[v.path].shape,
        dtype: want[v.path].dtype,
        dimensions: want[v.path].dimensions,
      },
      v.path,
    );
  }
  const temperature = got.variables!.find((v) => v.path === "temperature")!;
  ok(temperature.chunks !== null, "temperature is chunked");
  deepStrictEqual(temperature.codecs, ["shuffle", "zlib"]);

  const text = await t.cli("info", "climate.nc");
  equal(text.code, 0, text.stderr);
  ok(text.stdout.includes("18 variables:"), text.stdout);
  ok(
    text.stdout.includes(
      `  temperature  <f4 [5, 6, 8] (time, lat, lon)  chunks [${
        temperature.chunks!.join(", ")
      }] shuffle+zlib`,
    ),
    text.stdout,
  );
});

Deno.test("info of an h5py file: chunking as h5py wrote it, what cannot be mapped named", async () => {
  await using t = await setup();
  const want = expected["h5py.h5"];
  for (const path of ["h5py.h5"]) {
    const got = info(await t.cli("--json", "info", path));
    const shown = [
      ...got.variables!.map((v) => v.path),
      ...got.problems!.map((p) => p.path),
    ].sort();
    deepStrictEqual(shown, Object.keys(want).sort(), path);
    for (const v of got.variables!) {
      deepStrictEqual(
        { shape: v.shape, dtype: v.dtype, chunks: v.chunks },
        {
          shape: want[v.path].shape,
          dtype: want[v.path].dtype,
          chunks: want[v.path].chunks,
        },
        `${path}: ${v.path}`,
      );
    }
    deepStrictEqual(
      got.problems!.map((p) => p.path).sort(),
      ["compound"],
    );
  }
  const text = await t.cli("info", "h5py.h5");
  ok(
    text.stdout.includes("  big_endian  >i2 [2, 3, 4]  contiguous"),
    text.stdout,
  );
  ok(text.stdout.includes("  compound  left out: "), text.stdout);
});

Deno.test("info of other files, of a damaged classic NetCDF file and of a zip member shows no variables", async () => {
  await using t = await setup();
  // A file not named as HDF5 is not read, whatever its bytes: every content
  // request counts as a download on a real installation.
  t.emu.resetCounters();
  equal(
    info(await t.cli("--json", "info", "no_suffix.dat")).variables,
    undefined,
  );
  equal(t.emu.counters.heads + t.emu.counters.storeGets, 0);
  deepStrictEqual(
    Object.keys(info(await t.cli("--json", "info", "notes.txt"))).includes(
      "variables",
    ),
    false,
  );
  const member = info(
    await t.cli("--json", "info", "plain.zip!/docs/readme.txt"),
  );
  equal(member.variables, undefined);
  const text = await t.cli("info", "notes.txt");
  equal(text.code, 0);
  ok(!text.stdout.includes("variables"), text.stdout);
  // A damaged classic NetCDF file and a broken .h5 say why they have none.
  for (const name of ["classic.nc", "broken.h5"]) {
    const broken = info(await t.cli("--json", "info", name));
    deepStrictEqual(broken.variables, []);
    equal(broken.problems!.length, 1);
    ok(
      broken.problems![0].reason.includes(name),
      broken.problems![0].reason,
    );
  }
});

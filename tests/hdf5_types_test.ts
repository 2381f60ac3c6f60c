import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import * as zarr from "zarrita";
import { FormatError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { Hdf5FormatError, hdf5Store } from "../hdf5.ts";
import { getArray } from "../zarr.ts";

const DIR = new URL("../fixtures/hdf5/", import.meta.url);

interface Expected {
  shape?: number[];
  values?: unknown[];
  enum?: Record<string, number>;
  attrs: Record<string, unknown>;
}

/** What h5py and netCDF4 read (fixtures/hdf5/make_types.py). */
const EXPECTED: Record<string, Record<string, Expected>> = JSON.parse(
  await Deno.readTextFile(new URL("types_expected.json", DIR)),
);

/** The types each file holds that have no Zarr form, by variable. */
const LEFT_OUT: Record<string, Record<string, RegExp>> = {
  "types.h5": {
    compound: /compound/,
    opaque: /opaque/,
    reference: /reference/,
    sequence: /variable-length sequence/,
  },
  "types.nc": { pairs: /compound/, ragged: /variable-length sequence/ },
};

/** The shape of nested lists. */
function shapeOf(values: unknown): number[] {
  return Array.isArray(values) ? [values.length, ...shapeOf(values[0])] : [];
}

async function serve() {
  const files: Record<string, Uint8Array> = {};
  for (
    const name of [
      "types.h5",
      "types.nc",
      "classic_cdf1.nc",
      "classic_cdf2.nc",
      "classic_cdf5.nc",
    ]
  ) {
    files[name] = await Deno.readFile(new URL(name, DIR));
  }
  return await startEmulator({ files });
}

Deno.test("strings, enums and committed types of h5py and netCDF4 files read as h5py and netCDF4 read them, on a RepoFs and a pool of 2", async () => {
  await using emu = await serve();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const [file, variables] of Object.entries(EXPECTED)) {
    for (const [name, want] of Object.entries(variables)) {
      if (want.values === undefined) continue;
      for (const source of [fs, pool]) {
        const { data, shape } = await getArray(source, file, name);
        deepStrictEqual(shape, shapeOf(want.values), `${file} ${name}: shape`);
        deepStrictEqual(
          Array.from(data as ArrayLike<unknown>),
          want.values.flat(2),
          `${file} ${name}`,
        );
      }
    }
  }
});

Deno.test("string attributes, an attribute of a committed type and an enum's names read as h5py and netCDF4 read them", async () => {
  await using emu = await serve();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const [file, variables] of Object.entries(EXPECTED)) {
    const group = await zarr.open(hdf5Store(fs, file), { kind: "group" });
    for (const [name, want] of Object.entries(variables)) {
      if (name in LEFT_OUT[file]) continue;
      const arr = await zarr.open(group.resolve(name), { kind: "array" });
      const { _ARRAY_DIMENSIONS: _, flag_values, flag_meanings, ...attrs } =
        arr.attrs;
      const { _FillValue: __, ...wantAttrs } = want.attrs;
      deepStrictEqual(attrs, wantAttrs, `${file} ${name}: attributes`);
      if (want.enum) {
        const names = String(flag_meanings).split(" ");
        deepStrictEqual(
          Object.fromEntries(
            names.map((n, i) => [n, (flag_values as number[])[i]]),
          ),
          want.enum,
          `${file} ${name}: enum`,
        );
      } else {
        equal(flag_values, undefined);
      }
    }
    // A committed datatype is neither a group nor an array.
    if (file === "types.h5") {
      await rejects(zarr.open(group.resolve("mytype")), zarr.NotFoundError);
    }
  }
});

Deno.test("compound, reference, opaque and vlen-sequence variables are named in problems() with their type, and the rest reads", async () => {
  await using emu = await serve();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const [file, left] of Object.entries(LEFT_OUT)) {
    const store = hdf5Store(fs, file);
    const problems = await store.problems();
    deepStrictEqual(
      problems.map((p) => p.path).sort(),
      Object.keys(left).sort(),
    );
    for (const problem of problems) {
      ok(left[problem.path].test(problem.reason), problem.reason);
    }
    const group = await zarr.open(store, { kind: "group" });
    for (const name of Object.keys(left)) {
      await rejects(
        zarr.open(group.resolve(name), { kind: "array" }),
        (error: Error) =>
          error instanceof FormatError && error.variable === name &&
          error.path === file,
      );
    }
  }
});

Deno.test("the HDF5 reader names a classic NetCDF file (CDF-1, CDF-2, CDF-5) as such", async () => {
  await using emu = await serve();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const kind of ["1", "2", "5"]) {
    const file = `classic_cdf${kind}.nc`;
    await rejects(
      hdf5Store(fs, file).problems(),
      (error: Error) =>
        error instanceof Hdf5FormatError && error.path === file &&
        error.message.includes(`classic NetCDF (CDF-${kind})`),
    );
  }
});

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { hdf5Store } from "../hdf5.ts";
import { getArray } from "../zarr.ts";
import { HIDDEN_ATTRIBUTES } from "../src/formats/hdf5/netcdf.ts";

const DIR = new URL("../fixtures/hdf5/real/", import.meta.url);

interface Described {
  attrs: Record<string, unknown>;
  datasets: Record<string, {
    shape: number[];
    sum: number;
    probe: { index: number; value: number };
    attrs: Record<string, unknown>;
  }>;
}

/** What h5py read (fixtures/hdf5/real/values.py). */
const EXPECTED: Record<string, Described> = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", DIR)),
);

/** h5py's attributes that the store shows: netCDF's bookkeeping is hidden. */
function shown(attrs: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(attrs).filter(([name]) =>
      !HIDDEN_ATTRIBUTES.has(name) &&
      !["CLASS", "NAME", "_FillValue"].includes(name)
    ),
  );
}

Deno.test("netcdf4-python's issue671.nc and issue672.nc (attributes stored as huge heap objects) read whole as h5py reads them, on a RepoFs and a pool of 2", async () => {
  const files: Record<string, Uint8Array> = {};
  for (const name of Object.keys(EXPECTED)) {
    files[name] = await Deno.readFile(new URL(name, DIR));
  }
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const [name, expected] of Object.entries(EXPECTED)) {
    const store = hdf5Store(fs, name);
    deepStrictEqual(await store.problems(), [], name);
    const group = await zarr.open(store, { kind: "group" });
    deepStrictEqual(
      group.attrs,
      shown(expected.attrs),
      `${name}: root attributes`,
    );
    let variables = 0;
    for (const [path, want] of Object.entries(expected.datasets)) {
      if (
        String(want.attrs.NAME ?? "").startsWith("This is a netCDF dimension")
      ) {
        continue;
      }
      variables++;
      const arr = await zarr.open(group.resolve(path), { kind: "array" });
      const { _ARRAY_DIMENSIONS: _, ...attrs } = arr.attrs;
      deepStrictEqual(attrs, shown(want.attrs), `${name} ${path}: attributes`);
      for (const source of [fs, pool]) {
        const { data, shape } = await getArray(source, name, path);
        deepStrictEqual(shape, want.shape, `${name} ${path}: shape`);
        const values = Array.from(data as ArrayLike<number>);
        equal(
          values.reduce((a, b) => a + b, 0),
          want.sum,
          `${name} ${path}: sum`,
        );
        equal(
          values[want.probe.index],
          want.probe.value,
          `${name} ${path}: probe`,
        );
      }
    }
    ok(variables > 0, name);
  }
});

Deno.test("an attribute that cannot be read is named by problems(), and the rest of the file reads", async () => {
  const bytes = await Deno.readFile(new URL("issue671.nc", DIR));
  // Damage the signature of the B-tree of huge heap objects (type 1).
  const text = new TextDecoder("latin1").decode(bytes);
  let damaged = 0;
  for (
    let at = text.indexOf("BTHD");
    at >= 0;
    at = text.indexOf("BTHD", at + 1)
  ) {
    if (bytes[at + 5] === 1) {
      bytes[at] = "X".charCodeAt(0);
      damaged++;
    }
  }
  ok(damaged > 0, "the file has a B-tree of huge objects");
  await using emu = await startEmulator({ files: { "issue671.nc": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const store = hdf5Store(fs, "issue671.nc");
  const problems = await store.problems();
  ok(problems.length > 0);
  for (const problem of problems) {
    equal(problem.path, "/");
    ok(
      /^attribute number \d+: expected "BTHD"/.test(problem.reason),
      problem.reason,
    );
  }
  const expected = EXPECTED["issue671.nc"];
  const group = await zarr.open(store, { kind: "group" });
  const shownNames = Object.keys(group.attrs);
  ok(
    shownNames.length >=
      Object.keys(shown(expected.attrs)).length - problems.length,
  );
  for (const name of shownNames) {
    deepStrictEqual(group.attrs[name], expected.attrs[name], name);
  }
  const want = expected.datasets.soil_moisture;
  const { data } = await getArray(fs, "issue671.nc", "soil_moisture");
  const values = Array.from(data as ArrayLike<number>);
  equal(values.reduce((a, b) => a + b, 0), want.sum);
});

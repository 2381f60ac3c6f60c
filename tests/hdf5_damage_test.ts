import { deepStrictEqual, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { FormatError, RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readZarrView } from "../src/formats/hdf5/zarr_view.ts";
import { getArray } from "../zarr.ts";

const DIR = new URL("../fixtures/hdf5/", import.meta.url);
const FILES = ["h5py.h5", "netcdf4.nc", "latest.h5"];
const TRIALS = 150;

/** Every variable of the file, read whole through getArray. */
async function readEverything(
  fs: RepoFs,
  name: string,
): Promise<Record<string, unknown>> {
  const view = await readZarrView(fs, name);
  const values: Record<string, unknown> = {};
  for (const path of [...view.arrays.keys()].sort()) {
    const { data, shape } = await getArray(fs, name, path);
    values[path] = { shape, data: Array.from(data as ArrayLike<unknown>) };
  }
  return values;
}

Deno.test("truncated and byte-flipped HDF5 files give their values or a FormatError, never another failure", async () => {
  let seed = 11;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * below);
  };
  const files: Record<string, Uint8Array> = {};
  for (const name of FILES) {
    files[name] = await Deno.readFile(new URL(name, DIR));
  }
  const trials = Array.from({ length: TRIALS }, (_, trial) => {
    const of = FILES[trial % FILES.length];
    const original = files[of];
    const cut = trial % 2 === 0;
    const damaged = cut
      ? original.slice(0, random(original.length))
      : original.slice();
    for (let i = 0; !cut && i < 3; i++) {
      damaged[random(damaged.length)] ^= 1 << random(8);
    }
    const name = `damaged/${trial}-${of}`;
    files[name] = damaged;
    return { of, cut, name };
  });
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole: Record<string, unknown> = {};
  for (const name of FILES) whole[name] = await readEverything(fs, name);
  const outcomes = { read: 0, refused: 0 };
  for (const { of, cut, name } of trials) {
    try {
      const got = await readEverything(fs, name);
      // A cut file has no changed byte: whatever still reads must be right.
      if (cut) deepStrictEqual(got, whole[of], name);
      outcomes.read++;
    } catch (error) {
      // A flipped name byte leaves no variable of the old name.
      const named = error instanceof FormatError ||
        (!cut && error instanceof zarr.NotFoundError);
      ok(named, `${name}: ${(error as Error).stack}`);
      outcomes.refused++;
    }
  }
  ok(outcomes.refused > 0 && outcomes.read > 0, JSON.stringify(outcomes));
});

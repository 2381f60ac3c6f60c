/**
 * The damage sweep of HDF5 files: 150 cuts and byte flips of three files,
 * split into a deterministic sample (hdf5_damage_test.ts, in test:fast) and
 * the rest (hdf5_damage_full_test.ts).
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { FormatError, RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readZarrView } from "../src/formats/hdf5/zarr_view.ts";
import { getArray } from "../zarr.ts";

export const DIR = new URL("../fixtures/hdf5/", import.meta.url);
const FILES = ["h5py.h5", "netcdf4.nc", "latest.h5"];
const TRIALS = 150;

/** Every variable of the file, read whole through getArray, and what was left out. */
export async function readEverything(
  fs: RepoFs,
  name: string,
): Promise<{ values: Record<string, unknown>; left: string[] }> {
  const view = await readZarrView(fs, name);
  const values: Record<string, unknown> = {};
  for (const path of [...view.arrays.keys()].sort()) {
    const { data, shape } = await getArray(fs, name, path);
    values[path] = { shape, data: Array.from(data as ArrayLike<unknown>) };
  }
  return { values, left: view.problems.map((p) => p.path) };
}

/**
 * Reads the damaged files whose trial `keep` picks: each gives its values or
 * a FormatError, never another failure. Returns how many read and how many
 * were refused.
 */
export async function damagedFiles(
  keep: (trial: number) => boolean,
): Promise<{ read: number; refused: number }> {
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
    return { of, cut, name, trial };
  }).filter(({ trial }) => keep(trial));
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole: Record<string, Awaited<ReturnType<typeof readEverything>>> = {};
  for (const name of FILES) whole[name] = await readEverything(fs, name);
  const outcomes = { read: 0, refused: 0 };
  for (const { of, cut, name } of trials) {
    try {
      const got = await readEverything(fs, name);
      if (cut) {
        // A cut file has no changed byte: whatever still reads must be
        // right, and what does not is named (itself or its group).
        const want = whole[of].values;
        for (const [path, values] of Object.entries(got.values)) {
          deepStrictEqual(values, want[path], `${name} ${path}`);
        }
        for (const path of Object.keys(want)) {
          ok(
            path in got.values ||
              got.left.some((p) => path === p || path.startsWith(`${p}/`)),
            `${name}: ${path} neither read nor named`,
          );
        }
      }
      outcomes.read++;
    } catch (error) {
      // A flipped name byte leaves no variable of the old name.
      const named = error instanceof FormatError ||
        (!cut && error instanceof zarr.NotFoundError);
      ok(named, `${name}: ${(error as Error).stack}`);
      outcomes.refused++;
    }
  }
  return outcomes;
}

import { deepStrictEqual, ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { FormatError, RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readZarrView } from "../src/formats/hdf5/zarr_view.ts";
import { getArray } from "../zarr.ts";

const DIR = new URL("../fixtures/hdf5/", import.meta.url);
const FILES = ["h5py.h5", "netcdf4.nc", "latest.h5"];
const TRIALS = 150;

/** Every variable of the file, read whole through getArray, and what was left out. */
async function readEverything(
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
  ok(outcomes.refused > 0 && outcomes.read > 0, JSON.stringify(outcomes));
});

Deno.test("a dataset or group whose object header is damaged is named in problems(), and the rest of the file reads", async () => {
  const original = await Deno.readFile(new URL("latest.h5", DIR));
  const text = new TextDecoder("latin1").decode(original);
  const headers: number[] = [];
  for (
    let at = text.indexOf("OHDR");
    at >= 0;
    at = text.indexOf("OHDR", at + 1)
  ) {
    headers.push(at);
  }
  const files: Record<string, Uint8Array> = { "latest.h5": original };
  for (const at of headers) {
    const damaged = original.slice();
    damaged[at] = "X".charCodeAt(0);
    files[`damaged/${at}.h5`] = damaged;
  }
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole = await readEverything(fs, "latest.h5");
  let named = 0;
  for (const at of headers) {
    const name = `damaged/${at}.h5`;
    let got;
    try {
      got = await readEverything(fs, name);
    } catch (error) {
      // The root group's header: the file itself cannot be read.
      ok(error instanceof FormatError && /expected "OHDR"/.test(error.message));
      continue;
    }
    deepStrictEqual(got.left.length, 1, `${name}: ${got.left}`);
    named++;
    for (const [path, values] of Object.entries(whole.values)) {
      if (path === got.left[0]) ok(!(path in got.values));
      else deepStrictEqual(got.values[path], values, `${name} ${path}`);
    }
  }
  ok(named >= 5, `${named} of ${headers.length}`);
});

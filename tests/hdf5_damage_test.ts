import { deepStrictEqual, ok } from "node:assert/strict";
import { FormatError, RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { damagedFiles, DIR, readEverything } from "./hdf5_damage.ts";

Deno.test("a sample of truncated and byte-flipped HDF5 files give their values or a FormatError, never another failure", async () => {
  // Every 5th trial: cuts and flips of each file; hdf5_damage_full_test.ts reads the rest.
  const outcomes = await damagedFiles((trial) => trial % 5 === 0);
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

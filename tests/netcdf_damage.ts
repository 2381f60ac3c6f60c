/**
 * The damaged-header sweep of classic and CDF-5 files: every cut through the
 * header and 150 random byte flips each, split into a deterministic sample
 * (netcdf_test.ts, in test:fast) and the rest (netcdf_damage_full_test.ts).
 */
import { ok } from "node:assert/strict";
import * as zarr from "zarrita";
import { FormatError, RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { NetcdfFormatError, netcdfStore } from "../netcdf.ts";
import { parseHeader } from "../src/formats/netcdf/header.ts";

const DIR = new URL("../fixtures/netcdf/", import.meta.url);
const FILES = ["classic.nc", "cdf5.nc"];
const TRIALS = 150;

/** Every value of `arr`, as zarrita reads it. */
export async function readAll(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
): Promise<unknown> {
  // zarrita 0.7 cannot get an empty array (getArray can: see netcdf_test.ts).
  if (arr.shape.includes(0)) return [];
  if (arr.shape.length > 0) return (await zarr.get(arr)).data;
  return [await zarr.get(arr, [])];
}

/** Where a file of `size` bytes with a header of `header` is cut: all through the header, then now and then. */
function cuts(size: number, header: number): number[] {
  const at: number[] = [];
  for (let cut = 0; cut < size; cut += cut < header + 64 ? 7 : 301) {
    at.push(cut);
  }
  return at;
}

/**
 * Reads the damaged files whose index in the sweep `keep` picks: each gives
 * its values or a NetcdfFormatError naming it. Returns how many read and how
 * many were refused.
 */
export async function damagedHeaders(
  keep: (index: number) => boolean,
): Promise<{ read: number; refused: number }> {
  const files: Record<string, Uint8Array> = {};
  for (const file of FILES) {
    files[file] = await Deno.readFile(new URL(file, DIR));
  }
  const damaged: { name: string; bytes: Uint8Array; what: string }[] = [];
  for (const file of FILES) {
    const whole = files[file];
    const { length } = parseHeader(whole, file, whole.length);
    for (const cut of cuts(whole.length, length)) {
      damaged.push({
        name: `${cut}-${file}`,
        bytes: whole.slice(0, cut),
        what: `${file} cut at ${cut}`,
      });
    }
    let seed = 11;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * below);
    };
    for (let trial = 0; trial < TRIALS; trial++) {
      const bytes = whole.slice();
      const flips = 1 + random(3);
      for (let i = 0; i < flips; i++) bytes[random(length)] = random(256);
      damaged.push({
        name: `flipped-${trial}-${file}`,
        bytes,
        what: `${file} trial ${trial}`,
      });
    }
  }
  const kept = damaged.filter((_, index) => keep(index));
  await using emu = await startEmulator({
    files: Object.fromEntries(kept.map(({ name, bytes }) => [name, bytes])),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const outcomes = { read: 0, refused: 0 };
  for (const { name, what } of kept) {
    try {
      const group = await zarr.open(netcdfStore(fs, name), { kind: "group" });
      for (
        const v of ["temperature", "names", "rec_i4", "fixed_f8", "height"]
      ) {
        const arr = await zarr.open(group.resolve(v), { kind: "array" })
          .catch((error) => {
            if (error instanceof zarr.NotFoundError) return undefined;
            throw error;
          });
        if (arr && arr.shape.reduce((a, b) => a * b, 1) < 1e6) {
          await readAll(arr);
        }
      }
      outcomes.read++;
    } catch (error) {
      ok(
        error instanceof NetcdfFormatError && error instanceof FormatError &&
          error.message.includes(`"${name}"`),
        `${what}: ${(error as Error).stack}`,
      );
      outcomes.refused++;
    }
  }
  return outcomes;
}

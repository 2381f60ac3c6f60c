/**
 * Store GETs of the NetCDF/HDF5 files of fixtures/real/ and fixtures/hdf5/,
 * per file: opening it (its metadata), reading every variable with
 * `getArray`, and reading them all again on the same `RepoFs`.
 *
 *     deno run -A bench/metadata_gets.ts [--files]
 *
 * @module
 */

import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { netcdfStore } from "../netcdf.ts";
import { getArray } from "../zarr.ts";

const ROOT = new URL("../fixtures/", import.meta.url);
const NAMES = /\.(nc|h5|hdf5|he5|nc4)$/;

async function* files(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
    if (entry.isDirectory) yield* files(url);
    else if (NAMES.test(entry.name)) yield url;
  }
}

/** The arrays of the file's Zarr view, by path. */
async function arraysOf(fs: RepoFs, name: string): Promise<string[]> {
  const bytes = await netcdfStore(fs, name).get("/.zmetadata");
  const { metadata } = JSON.parse(new TextDecoder().decode(bytes));
  return Object.keys(metadata).filter((k) => k.endsWith(".zarray"))
    .map((k) => k.slice(0, -".zarray".length).replace(/\/$/, ""));
}

async function readAll(fs: RepoFs, name: string, arrays: string[]) {
  for (const array of arrays) {
    await getArray(fs, name, array).catch(() => undefined);
  }
}

const totals = { open: 0, openBytes: 0, all: 0, again: 0, files: 0 };
const perFile = Deno.args.includes("--files");
for (const dir of ["real/", "hdf5/"]) {
  for await (const url of files(new URL(dir, ROOT))) {
    const name = url.pathname.split("/").at(-1)!;
    const bytes = await Deno.readFile(url);
    await using emu = await startEmulator({ files: { [name]: bytes } });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await fs.info(name);
    emu.resetCounters();
    let arrays: string[];
    try {
      arrays = await arraysOf(fs, name);
    } catch {
      continue;
    }
    const open = emu.counters.storeGets;
    const openBytes = emu.counters.storeBytes;
    totals.openBytes += openBytes;
    await readAll(fs, name, arrays);
    const all = emu.counters.storeGets;
    emu.resetCounters();
    await readAll(fs, name, arrays);
    const again = emu.counters.storeGets;
    totals.open += open;
    totals.all += all;
    totals.again += again;
    totals.files++;
    if (perFile) {
      console.log(
        `${name} (${bytes.length} B, ${arrays.length} arrays): open ${open} (${openBytes} B), all ${all}, again ${again}`,
      );
    }
  }
}
console.log(JSON.stringify(totals));

/**
 * Round trips of NetCDF4/HDF5 reads. By default, the requests of one cold
 * read in order, with when each started and when its answer's head was
 * ready: `getArray(new RepoFs(...), "climate.nc", "temperature", [step,
 * null, null])` on bench/format_files.ts's climate.nc, the emulator at
 * `--latency` ms a request without a redirect (as bench/peers.ts serves).
 * `--whole` reads the whole variable; `--pool=N` reads through a cold
 * `RepoFsPool` of N. `--corpus` instead opens each NetCDF/HDF5 file of
 * fixtures/ (its `.zmetadata`) and counts its GETs and their waves (GETs
 * that wait on an earlier answer start a new wave).
 *
 *     deno run -A bench/netcdf_trips.ts [--steps=30] [--latency=20] [--reps=3] [--whole] [--pool=2]
 *     deno run -A bench/netcdf_trips.ts --corpus [--files]
 *
 * @module
 */

import { countFlag, flag } from "./flags.ts";
import { writeNetcdf } from "./format_files.ts";
import { startEmulator } from "../emulator.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { netcdfStore } from "../netcdf.ts";
import { getArray } from "../zarr.ts";

const STEPS = countFlag("steps", 30);
const REPS = countFlag("reps", 3);
const LATENCY = Number(flag("latency", "20"));
const WHOLE = Deno.args.includes("--whole");
const POOL = Number(flag("pool", "0"));

if (Deno.args.includes("--corpus")) await corpus();
else await oneRead();

async function oneRead(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "repo-fs-trips-" });
  await writeNetcdf(dir, STEPS, flag("python", "/usr/bin/python3"));
  const file = await Deno.readFile(`${dir}/climate.nc`);
  await Deno.remove(dir, { recursive: true });

  let t0 = 0;
  const log: string[] = [];
  await using emu = await startEmulator({
    files: { "climate.nc": file },
    faults: {
      latencyMs: LATENCY,
      redirect: false,
      respond: async (request, info) => {
        const start = performance.now() - t0;
        const answer = await info.next();
        const range = request.headers.get("range") ?? "";
        log.push(
          `${start.toFixed(1).padStart(7)} → ${
            (performance.now() - t0).toFixed(1).padStart(7)
          } ms  ${request.method} ${info.route} ${range}`,
        );
        return answer;
      },
    },
  });

  for (let rep = 0; rep < REPS; rep++) {
    log.length = 0;
    t0 = performance.now();
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await using pool = POOL > 0 ? new RepoFsPool(fs, { workers: POOL }) : null;
    const { data } = await getArray(
      pool ?? fs,
      "climate.nc",
      "temperature",
      WHOLE ? null : [STEPS >> 1, null, null],
    );
    const total = performance.now() - t0;
    console.log(
      `\nrun ${rep + 1}: ${total.toFixed(1)} ms, ${log.length} requests, ${
        (data as Float32Array).length
      } values`,
    );
    console.log(log.join("\n"));
  }
}

async function corpus(): Promise<void> {
  const names = /\.(nc|h5|hdf5|he5|nc4)$/;
  async function* files(dir: URL): AsyncGenerator<URL> {
    for await (const entry of Deno.readDir(dir)) {
      const url = new URL(entry.name + (entry.isDirectory ? "/" : ""), dir);
      if (entry.isDirectory) yield* files(url);
      else if (names.test(entry.name)) yield url;
    }
  }
  const byWaves: Record<number, number> = {};
  const totals = { files: 0, gets: 0, bytes: 0 };
  for await (const url of files(new URL("../fixtures/", import.meta.url))) {
    const bytes = await Deno.readFile(url);
    const starts: number[] = [];
    await using emu = await startEmulator({
      files: { "f.nc": bytes },
      faults: {
        latencyMs: LATENCY,
        respond: (_request, info) => {
          if (info.origin === "store") starts.push(performance.now());
          return undefined;
        },
      },
    });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await fs.info("f.nc");
    emu.resetCounters();
    try {
      await netcdfStore(fs, "f.nc").get("/.zmetadata");
    } catch {
      continue; // a hostile or classic-only fixture
    }
    let waves = 0;
    let last = -Infinity;
    for (const start of starts.sort((a, b) => a - b)) {
      if (start - last > LATENCY / 2) waves++;
      last = start;
    }
    byWaves[waves] = (byWaves[waves] ?? 0) + 1;
    totals.files++;
    totals.gets += starts.length;
    totals.bytes += emu.counters.storeBytes;
    if (Deno.args.includes("--files") || waves > 1) {
      console.log(
        `${
          url.pathname.split("/fixtures/")[1]
        } (${bytes.length} B): ${starts.length} GETs in ${waves} waves`,
      );
    }
  }
  console.log(
    `${totals.files} files opened in ${totals.gets} GETs (${totals.bytes} B); files by waves: ${
      JSON.stringify(byWaves)
    }`,
  );
}

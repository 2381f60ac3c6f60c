// Issue 35 benchmark: a 256 × 256 window at full resolution and one overview
// window of a ~100 MiB Cloud-Optimized GeoTIFF at 20 ms emulator latency,
// read with `readRaster` (by RepoFs alone, and decoded in a pool of 2)
// against downloading the whole file and reading the same window from the
// bytes in memory with geotiff.js. Every side starts cold (a fresh RepoFs:
// one HEAD, the listing); each is measured `--reps` times, alternating. Wall
// time, bytes and GETs from the store.
//
// Command (from the repository root; writes the COG with Debian's python3
// and GDAL's bindings into a temporary directory first):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-write --allow-env --allow-run bench/geotiff_window.ts
// Options: --size=5120 (pixels a side, float32, deflate, 512 × 512 tiles), --reps=3.

import { fromArrayBuffer } from "geotiff";
import { countFlag } from "./flags.ts";
import { median } from "./synth_listing.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readRaster } from "../geotiff.ts";

const SIZE = countFlag("size", 5120);
const REPS = countFlag("reps", 3);
const CENTER = Math.floor(SIZE / 2);
const WINDOW: [number, number, number, number] = [
  CENTER - 128,
  CENTER - 128,
  CENTER + 128,
  CENTER + 128,
];

const dir = await Deno.makeTempDir();
const script = `
import numpy as np
from osgeo import gdal, osr
gdal.UseExceptions()
rng = np.random.default_rng(1)
ds = gdal.GetDriverByName("GTiff").Create("${dir}/plain.tif", ${SIZE}, ${SIZE}, 1, gdal.GDT_Float32)
ds.SetGeoTransform([500000.0, 10.0, 0.0, 5200000.0, 0.0, -10.0])
srs = osr.SpatialReference()
srs.ImportFromEPSG(32633)
ds.SetProjection(srs.ExportToWkt())
band = ds.GetRasterBand(1)
for top in range(0, ${SIZE}, 512):
    rows = min(512, ${SIZE} - top)
    band.WriteArray((rng.random((rows, ${SIZE}), dtype="f4") * 40 + 250), 0, top)
ds = None
gdal.Translate("${dir}/dem.tif", "${dir}/plain.tif", format="COG",
               creationOptions=["COMPRESS=DEFLATE", "BLOCKSIZE=512"])
`;
const made = await new Deno.Command("/usr/bin/python3", {
  args: ["-c", script],
}).output();
if (!made.success) throw new Error(new TextDecoder().decode(made.stderr));
const bytes = await Deno.readFile(`${dir}/dem.tif`);
await Deno.remove(dir, { recursive: true });
console.log(
  `dem.tif: ${
    (bytes.length / 2 ** 20).toFixed(1)
  } MiB, ${SIZE} × ${SIZE} float32, deflate, 512 × 512 tiles, overviews`,
);

await using emu = await startEmulator({
  files: { "dem.tif": bytes },
  faults: { latencyMs: 20 },
});

type Read = (image: number, window?: typeof WINDOW) => Promise<number>;

const alone: Read = async (image, window) => {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  return (await readRaster(fs, "dem.tif", { image, window })).data[0][0];
};

const pooled: Read = async (image, window) => {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  return (await readRaster(pool, "dem.tif", { image, window })).data[0][0];
};

const downloaded: Read = async (image, window) => {
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const whole = await fs.catFile("dem.tif");
  const tiff = await fromArrayBuffer(whole.slice().buffer);
  const [band] = await (await tiff.getImage(image)).readRasters({ window });
  return (band as Float32Array)[0];
};

const cases = [
  ["256 × 256 at full resolution", 0, WINDOW],
  ["a whole overview (1/8)", 3, undefined],
] as const;
const rows: Record<string, { ms: number[]; bytes: number; gets: number }> = {};
for (let rep = 0; rep < REPS; rep++) {
  for (const [what, image, window] of cases) {
    for (
      const [how, read] of [
        ["readRaster, RepoFs alone", alone],
        ["readRaster, pool of 2", pooled],
        ["download, then read", downloaded],
      ] as const
    ) {
      emu.resetCounters();
      const start = performance.now();
      const first = await read(image, window);
      const ms = performance.now() - start;
      const row = rows[`${what} | ${how}`] ??= { ms: [], bytes: 0, gets: 0 };
      row.ms.push(ms);
      row.bytes = emu.counters.storeBytes;
      row.gets = emu.counters.storeGets;
      if (!(first >= 250 && first < 290)) {
        throw new Error(`${what}, ${how}: read ${first}`);
      }
    }
  }
}
console.log(
  `| window | read | median ms (${REPS} runs) | bytes from the store | store GETs |`,
);
console.log("|---|---|---|---|---|");
for (const [name, { ms, bytes: fetched, gets }] of Object.entries(rows)) {
  console.log(
    `| ${name} | ${median(ms).toFixed(0)} | ${fetched} (${
      (100 * fetched / bytes.length).toFixed(2)
    } %) | ${gets} |`,
  );
}

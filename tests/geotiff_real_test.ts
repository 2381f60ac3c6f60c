// Real GeoTIFFs from rasterio's test suite (fixtures/geotiff/real/), each
// read whole through readRaster over the emulator and compared with what
// GDAL read (expected.json, by make_expected.py).

import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  GeotiffFormatError,
  type RasterArray,
  readRaster,
} from "../geotiff.ts";

const REAL = new URL("../fixtures/geotiff/real/", import.meta.url);

interface Band {
  sha256: string;
  sum: number;
  nans: number;
  samples: [number, number | null][];
}
interface Expected {
  refused?: string;
  width: number;
  height: number;
  bands: number;
  compression: string | null;
  overviews: [number, number][];
  full: Band[];
  overview?: Band[];
}

const expected: Record<string, Expected> = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", REAL)),
);
const files: Record<string, Uint8Array> = {};
for (const name of Object.keys(expected)) {
  files[name] = await Deno.readFile(new URL(name, REAL));
}

/** A band as make_expected.py describes it. */
function described(values: RasterArray): Band {
  const little = new Uint8Array(values.byteLength);
  little.set(
    new Uint8Array(values.buffer, values.byteOffset, values.byteLength),
  );
  let sum = 0;
  let nans = 0;
  for (const v of values) {
    if (Number.isNaN(v)) nans++;
    else sum += v;
  }
  const picks = values.length <= 64 ? [...values.keys()] : Array.from(
    { length: 64 },
    (_, i) => Math.trunc(i * (values.length - 1) / 63),
  );
  return {
    sha256: createHash("sha256").update(little).digest("hex"),
    sum,
    nans,
    samples: picks.map((i) => [i, Number.isNaN(values[i]) ? null : values[i]]),
  };
}

/**
 * Lossy JPEG tiles decode to within a few levels of libjpeg's: decoders
 * differ in IDCT rounding and in how they upsample subsampled chroma.
 */
function close(got: Band, want: Band, pixels: number, what: string): void {
  for (const [k, [i, v]] of want.samples.entries()) {
    ok(
      Math.abs(got.samples[k][1]! - v!) <= 12,
      `${what} pixel ${i}: ${got.samples[k][1]} vs ${v}`,
    );
  }
  ok(
    Math.abs(got.sum - want.sum) / pixels <= 1,
    `${what} mean ${got.sum / pixels} vs ${want.sum / pixels}`,
  );
}

Deno.test("readRaster in a pool's workers: a damaged tile is a GeotiffFormatError there too, with its class and message", async () => {
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await rejects(readRaster(pool, "corrupt.tif"), (error) => {
    ok(error instanceof GeotiffFormatError, String(error));
    ok(error.message.startsWith('Not a readable GeoTIFF "corrupt.tif": '));
    return true;
  });
  const { width, data } = await readRaster(pool, "cogeo.tif", { image: 1 });
  equal(width, expected["cogeo.tif"].overviews[0][0]);
  equal(data.length, expected["cogeo.tif"].bands);
});

Deno.test("readRaster of real GeoTIFFs: GDAL's values, or refused by name where GDAL refuses", async (t) => {
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const [name, want] of Object.entries(expected)) {
    await t.step(name, async () => {
      if (want.refused !== undefined) {
        await rejects(readRaster(fs, name), (error) => {
          ok(error instanceof GeotiffFormatError, String(error));
          ok(error.message.includes(`"${name}"`));
          return true;
        });
        return;
      }
      const lossy = /JPEG/.test(want.compression ?? "");
      const images: [number, Band[] | undefined, [number, number]][] = [
        [0, want.full, [want.width, want.height]],
        [1, want.overview, want.overviews[0]],
      ];
      for (const [image, bands, size] of images) {
        if (bands === undefined) continue;
        const raster = await readRaster(fs, name, { image });
        deepStrictEqual([raster.width, raster.height], size);
        const got = raster.data.map(described);
        equal(got.length, bands.length);
        for (const [b, band] of bands.entries()) {
          const what = `${name} image ${image} band ${b}`;
          if (lossy) close(got[b], band, size[0] * size[1], what);
          else deepStrictEqual(got[b], band, what);
        }
      }
    });
  }
});

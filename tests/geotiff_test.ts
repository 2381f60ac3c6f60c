import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { createHash } from "node:crypto";
import { FormatError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  geotiff,
  GeotiffFormatError,
  rasterSizes,
  readRaster,
} from "../geotiff.ts";
import { zipTree } from "../zip.ts";
import type { GeoTIFFImage } from "geotiff";

const FIXTURES = new URL("../fixtures/geotiff/", import.meta.url);

/** What GDAL read from cog.tif (fixtures/geotiff/make.sh). */
interface Expected {
  width: number;
  height: number;
  overviews: [number, number][];
  windows: {
    image: number;
    window: [number, number, number, number];
    bands: { sha256: string; sum: number; values?: number[] }[];
  }[];
}

const content = await Deno.readFile(new URL("cog.tif", FIXTURES));
const expected: Expected = JSON.parse(
  await Deno.readTextFile(new URL("cog.tif.json", FIXTURES)),
);

/** A band's values as GDAL's make.sh summed and hashed them (little-endian Int16). */
function described(values: Int16Array, full: boolean) {
  const bytes = new Uint8Array(values.length * 2);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt16(2 * i, v, true));
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    sum: values.reduce((a, b) => a + b, 0),
    ...(full ? { values: [...values] } : {}),
  };
}

async function checkWindows(source: RepoFs | RepoFsPool) {
  for (const { image, window, bands } of expected.windows) {
    const raster = await readRaster(source, "maps/cog.tif", { image, window });
    strictEqual(raster.width, window[2] - window[0]);
    strictEqual(raster.height, window[3] - window[1]);
    ok(raster.data.every((band) => band instanceof Int16Array));
    deepStrictEqual(
      raster.data.map((band, i) =>
        described(band as Int16Array, bands[i].values !== undefined)
      ),
      bands,
      `image ${image} window ${window}`,
    );
  }
}

Deno.test("readRaster: windows at full resolution and of both overviews equal GDAL's values, on a RepoFs", async () => {
  await using emu = await startEmulator({ files: { "maps/cog.tif": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await checkWindows(fs);
});

Deno.test("readRaster: the same values decoded in the workers of a pool of 2", async () => {
  await using emu = await startEmulator({ files: { "maps/cog.tif": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await checkWindows(pool);
  const one = await readRaster(pool, "maps/cog.tif", {
    image: 1,
    window: [60, 70, 90, 80],
    samples: [1],
  });
  deepStrictEqual([...one.data[0]], expected.windows[2].bands[1].values);
});

Deno.test("geotiff: opening a COG is one request, and its images are GDAL's full size and overviews", async () => {
  await using emu = await startEmulator({ files: { "maps/cog.tif": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.ls("");
  const tiff = await geotiff(fs, "maps/cog.tif");
  const count = await tiff.getImageCount();
  const sizes = [];
  for (let i = 0; i < count; i++) {
    const image = await tiff.getImage(i);
    sizes.push([image.getWidth(), image.getHeight()]);
  }
  deepStrictEqual(sizes, [
    [expected.width, expected.height],
    ...expected.overviews,
  ]);
  strictEqual(emu.counters.storeGets, 1);
  strictEqual(emu.counters.storeBytes, 64 * 1024);
});

Deno.test("rasterSizes: GDAL's full size and overviews, with the bands, from the first read alone", async () => {
  await using emu = await startEmulator({ files: { "maps/cog.tif": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const sizes = await rasterSizes(fs, "maps/cog.tif");
  deepStrictEqual(
    sizes.map(({ width, height }) => [width, height]),
    [[expected.width, expected.height], ...expected.overviews],
  );
  ok(sizes.every((s) => s.samples === 2));
  strictEqual(emu.counters.storeGets, 1);
});

Deno.test("readRaster: a 256x256 window fetches no more than the tiles it overlaps, the header and 64 KiB", async () => {
  await using emu = await startEmulator({ files: { "maps/cog.tif": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tiff = await geotiff(fs, "maps/cog.tif");
  // geotiff.js's own image, tags and all.
  const image = await tiff.getImage(0) as GeoTIFFImage;
  const directory = image.fileDirectory;
  const counts = [...(await directory.loadValue("TileByteCounts"))!];
  let header = Infinity;
  for (let i = 0; i < await tiff.getImageCount(); i++) {
    const offsets = await (await tiff.getImage(i) as GeoTIFFImage).fileDirectory
      .loadValue(
        "TileOffsets",
      );
    header = Math.min(header, ...offsets!);
  }
  // GDAL's COG keeps both bands in each tile (PlanarConfiguration 1).
  strictEqual(await directory.loadValue("PlanarConfiguration"), 1);
  const across = Math.ceil(expected.width / image.getTileWidth());
  const window: [number, number, number, number] = [100, 100, 356, 356];
  let tiles = 0;
  for (let y = 0; y <= 2; y++) {
    for (let x = 0; x <= 2; x++) tiles += counts[y * across + x];
  }
  emu.resetCounters();
  for (const source of [fs, new RepoFsPool(fs, { workers: 2 })]) {
    emu.resetCounters();
    await readRaster(source, "maps/cog.tif", { window });
    if (source instanceof RepoFsPool) await source.close();
    ok(
      emu.counters.storeBytes <= tiles + header + 64 * 1024,
      `${emu.counters.storeBytes} bytes > ${tiles} of tiles + ${header} of header + 64 KiB`,
    );
    // The first 64 KiB (header, directories, tile tables), the tiles, and
    // the 8 bytes GDAL puts between neighbours of a row (joined: one GET a row).
    ok(emu.counters.storeBytes <= tiles + 64 * 1024 + 9 * 8);
    ok(emu.counters.storeGets <= 1 + 3, `${emu.counters.storeGets} GETs`);
  }
});

Deno.test("readRaster inside a zip archive", async () => {
  const zipped = await zipOf("cog.tif", content);
  await using emu = await startEmulator({ files: { "maps.zip": zipped } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tree = await zipTree(fs, "maps.zip");
  const { image, window, bands } = expected.windows[2];
  const raster = await readRaster(tree, "cog.tif", { image, window });
  deepStrictEqual([...raster.data[0]], bands[0].values);
});

Deno.test("readRaster: a file that is not a TIFF, a bad image, window or sample are GeotiffFormatErrors naming the file", async () => {
  await using emu = await startEmulator({
    files: {
      "maps/cog.tif": content,
      "maps/notes.tif": new TextEncoder().encode("not a tiff at all"),
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const refused = (message: RegExp) => (error: unknown) => {
    ok(error instanceof GeotiffFormatError, String(error));
    ok(error instanceof FormatError);
    ok(message.test(error.message), error.message);
    return true;
  };
  await rejects(
    readRaster(fs, "maps/notes.tif"),
    refused(/^Not a readable GeoTIFF "maps\/notes.tif": .*byte order mark/),
  );
  await rejects(
    readRaster(fs, "maps/cog.tif", { image: 3 }),
    refused(/"maps\/cog.tif": it has no image 3 \(it has 3/),
  );
  await rejects(
    readRaster(fs, "maps/cog.tif", { image: 2, window: [0, 0, 129, 10] }),
    refused(/window \[0,0,129,10\] is not inside image 2 \(128x128 pixels\)/),
  );
  await rejects(
    readRaster(fs, "maps/cog.tif", { samples: [2] }),
    refused(/it has no sample 2 \(it has 2\)/),
  );
  await rejects(geotiff(fs, "maps"), refused(/it is a directory/));
});

/** A zip of one stored member, written by the system's `zip`. */
async function zipOf(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/${name}`, bytes);
    const { success } = await new Deno.Command("zip", {
      args: ["-q", "-0", "out.zip", name],
      cwd: dir,
    }).output();
    ok(success);
    return await Deno.readFile(`${dir}/out.zip`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

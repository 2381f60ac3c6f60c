import { deepStrictEqual, equal, match } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { type CliRun, runCli } from "./support.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const read = (path: string) => Deno.readFile(new URL(path, FIXTURES));
const readJson = async (path: string) =>
  JSON.parse(await Deno.readTextFile(new URL(path, FIXTURES)));

/** `gdalinfo -json cog.tif` (fixtures/geotiff/make.sh). */
const gdal = await readJson("geotiff/cog.tif.gdalinfo.json");
/** What parquet-wasm read back from the file (fixtures/parquet/make.ts). */
const parquet = await readJson("parquet/stations.zstd.parquet.json");

async function setup() {
  const emu = await startEmulator({
    files: {
      "maps/cog.tif": await read("geotiff/cog.tif"),
      "maps/masked.tif": await read("geotiff/real/cogeo.tif"),
      "maps/fake.tif": "not a TIFF, whatever the name says",
      "t/stations.parquet": await read("parquet/stations.zstd.parquet"),
      "t/fake.parquet": "not Parquet either",
    },
  });
  return {
    cli: (...args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, ...args]),
    [Symbol.asyncDispose]: () => emu.close(),
  };
}

function succeeded(run: CliRun): string {
  equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}

Deno.test("info of a COG: GDAL's size, bands, data type, EPSG code, bounds and overviews", async () => {
  await using t = await setup();
  const { geotiff } = JSON.parse(
    succeeded(await t.cli("--json", "info", "maps/cog.tif")),
  );
  const corners = gdal.cornerCoordinates;
  deepStrictEqual(geotiff, {
    width: gdal.size[0],
    height: gdal.size[1],
    bands: gdal.bands.length,
    dataType: gdal.bands[0].type.toLowerCase(),
    crs: `EPSG:${gdal.stac["proj:epsg"]}`,
    bounds: [...corners.lowerLeft, ...corners.upperRight],
    blocks: gdal.bands[0].block,
    overviews: gdal.bands[0].overviews.map((o: { size: number[] }) => o.size),
  });
  const text = succeeded(await t.cli("info", "maps/cog.tif"));
  match(text, /\n512x512 pixels, 2 bands of int16, blocks 128x128\n/);
  match(
    text,
    /\nCRS: EPSG:32633, bounds \[500000, 5184640, 515360, 5200000\]\n/,
  );
  match(text, /\noverviews: 256x256, 128x128\n/);
});

Deno.test("info of a COG with GDAL's internal masks: the overviews GDAL lists, no mask among them", async () => {
  await using t = await setup();
  const real = await readJson("geotiff/real/expected.json");
  const { geotiff } = JSON.parse(
    succeeded(await t.cli("--json", "info", "maps/masked.tif")),
  );
  deepStrictEqual(geotiff.overviews, real["cogeo.tif"].overviews);
  equal(geotiff.bands, real["cogeo.tif"].bands);
});

Deno.test("info of a Parquet file: parquet-wasm's rows, row groups and columns, with their types", async () => {
  await using t = await setup();
  const info = JSON.parse(
    succeeded(await t.cli("--json", "info", "t/stations.parquet")),
  );
  equal(info.parquet.rows, parquet.rows);
  deepStrictEqual(
    info.parquet.rowGroups,
    parquet.rowGroups.map((g: { rows: number }) => g.rows),
  );
  deepStrictEqual(
    info.parquet.columns.map((c: { name: string }) => c.name),
    parquet.columns,
  );
  deepStrictEqual(
    info.parquet.columns.find((c: { name: string }) => c.name === "name"),
    {
      name: "name",
      type: "STRING",
      physicalType: "BYTE_ARRAY",
      nullable: true,
    },
  );
  const text = succeeded(await t.cli("info", "t/stations.parquet"));
  match(text, /\n10000 rows in 7 row groups \(1500, 1500, .*, 1000 rows\)\n/);
  match(text, /\n8 columns:\n {2}id +INT32 not null\n/);
  match(text, /\n {2}day +DATE \(INT32\)\n/);
});

Deno.test("info of files named .tif or .parquet that are neither: the entry, and why its content is not read", async () => {
  await using t = await setup();
  match(
    succeeded(await t.cli("info", "maps/fake.tif")),
    /\nnot readable: Not a readable GeoTIFF "maps\/fake.tif": .*byte order mark/,
  );
  match(
    succeeded(await t.cli("info", "t/fake.parquet")),
    /\nnot readable: Not a readable Parquet file "t\/fake.parquet": /,
  );
});

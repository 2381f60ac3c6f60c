import { deepStrictEqual, equal, match, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { type CliRun, runCli } from "./support.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const read = (path: string) => Deno.readFile(new URL(path, FIXTURES));
const readJson = async (path: string) =>
  JSON.parse(await Deno.readTextFile(new URL(path, FIXTURES)));

/** What netCDF4-python and h5py read for each slice (fixtures/show/make.py). */
const slices: {
  folder: string;
  file: string;
  variable: string;
  slice: string;
  shape: number[];
  values: unknown;
}[] = await readJson("show/expected.json");
/** What h5py / netCDF4 read of whole variables (fixtures/hdf5/make.py). */
const hdf5: Record<
  string,
  Record<
    string,
    { sum: number; shape: number[]; probe: { index: number; value: number } }
  >
> = await readJson("hdf5/expected.json");
/** What parquet-wasm read back from stations.snappy.parquet (fixtures/parquet/make.ts). */
const stations: {
  rows: number;
  rowGroups: { rows: number }[];
  columns: string[];
  sums: Record<string, number | string>;
  probe: { index: number; row: Record<string, unknown> };
} = await readJson("parquet/stations.snappy.parquet.json");

const TAB = 'station\ttemp\tnote\nA\t1.5\t"x, ""y"""\nB\t2.25\tz\nC\t-3\t\n';

const nc = await read("hdf5/netcdf4.nc");
const zipped = await zipOf("inner/netcdf4.nc", nc);

async function setup() {
  const emu = await startEmulator({
    files: {
      "netcdf4.nc": nc,
      "h5py.h5": await read("hdf5/h5py.h5"),
      "t/stations.parquet": await read("parquet/stations.snappy.parquet"),
      "obs.tab": TAB,
      "notes.txt": "just text\n",
      ...Object.fromEntries(
        await Promise.all(
          slices.map(async ({ folder, file }) => [
            file,
            await read(`${folder}/${file}`),
          ]),
        ),
      ),
      "maps/cog.tif": await read("geotiff/cog.tif"),
      "data.zip": zipped,
      "grid.zarr/.zgroup": '{"zarr_format":2}',
      "grid.zarr/t/.zarray": JSON.stringify({
        zarr_format: 2,
        shape: [4, 3],
        chunks: [2, 3],
        dtype: "<i4",
        compressor: null,
        filters: null,
        fill_value: 0,
        order: "C",
      }),
      "grid.zarr/t/.zattrs": '{"_ARRAY_DIMENSIONS":["y","x"]}',
      // Two million values, no chunk written: all the fill value.
      "grid.zarr/big/.zarray": JSON.stringify({
        zarr_format: 2,
        shape: [2000, 1000],
        chunks: [100, 100],
        dtype: "<f8",
        compressor: null,
        filters: null,
        fill_value: -1.5,
        order: "C",
      }),
      "grid.zarr/t/0.0": new Uint8Array(Int32Array.of(0, 1, 2, 3, 4, 5).buffer),
      "grid.zarr/t/1.0": new Uint8Array(
        Int32Array.of(6, 7, 8, 9, 10, 11).buffer,
      ),
    },
  });
  return {
    cli: (...args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, "show", ...args]),
    [Symbol.asyncDispose]: () => emu.close(),
  };
}

function succeeded(run: CliRun): string {
  equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** A failure: exit `code` and one line on stderr matching `pattern`. */
function failed(run: CliRun, code: number, pattern: RegExp): void {
  equal(run.code, code, `exit ${run.code}: ${run.stdout}${run.stderr}`);
  equal(run.stdout, "");
  const lines = run.stderr.trimEnd().split("\n");
  equal(lines.length, 1, run.stderr);
  match(lines[0], pattern);
}

/** CSV without quoted fields: a header and rows of cells. */
function csv(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = text.trimEnd().split("\n").map((l) => l.split(","));
  return { header, rows };
}

Deno.test("show: slices of NetCDF4, classic NetCDF and HDF5 variables equal netCDF4-python's and h5py's, as JSON", async () => {
  await using t = await setup();
  for (const { file, variable, slice, shape, values } of slices) {
    const run = await t.cli(
      file,
      "--var",
      variable,
      `--slice=${slice}`,
      "--format",
      "json",
    );
    const shown = JSON.parse(succeeded(run));
    deepStrictEqual(shown.shape, shape, `${file} ${variable}[${slice}]`);
    deepStrictEqual(shown.values, values, `${file} ${variable}[${slice}]`);
    equal(shown.variable, variable);
  }
});

Deno.test("show: a slice as CSV has one row per value with the indices of each kept dimension", async () => {
  await using t = await setup();
  const { header, rows } = csv(succeeded(
    await t.cli("netcdf4.nc", "--var", "temperature", "--slice", "1,0:2,-2:"),
  ));
  deepStrictEqual(header, ["lat", "lon", "temperature"]);
  const [[a, b], [c, d]] = slices[0].values as number[][];
  deepStrictEqual(rows, [
    ["0", "6", String(a)],
    ["0", "7", String(b)],
    ["1", "6", String(c)],
    ["1", "7", String(d)],
  ]);
});

Deno.test("show: a whole variable as CSV sums to what netCDF4-python read, with its probe in C order", async () => {
  await using t = await setup();
  const { sum, shape, probe } = hdf5["netcdf4.nc"].temperature;
  const { header, rows } = csv(
    succeeded(await t.cli("netcdf4.nc", "--var", "temperature")),
  );
  deepStrictEqual(header, ["time", "lat", "lon", "temperature"]);
  equal(rows.length, shape.reduce((a, b) => a * b));
  equal(rows.reduce((total, row) => total + Number(row[3]), 0), sum);
  equal(Number(rows[probe.index][3]), probe.value);
});

Deno.test("show: a variable of a NetCDF4 file inside a zip archive", async () => {
  await using t = await setup();
  const shown = JSON.parse(succeeded(
    await t.cli(
      "data.zip!/inner/netcdf4.nc",
      "--var",
      "temperature",
      `--slice=${slices[0].slice}`,
      "--json",
    ),
  ));
  deepStrictEqual(shown.values, slices[0].values);
});

Deno.test("show: an array of a Zarr hierarchy, by --var or by its own directory", async () => {
  await using t = await setup();
  const expected = "y,t\n1,5\n2,8\n";
  equal(
    succeeded(await t.cli("grid.zarr", "--var", "t", "--slice", "1:3,2")),
    expected,
  );
  equal(succeeded(await t.cli("grid.zarr/t", "--slice", "1:3,2")), expected);
});

Deno.test("show: Parquet columns and rows equal what parquet-wasm read", async () => {
  await using t = await setup();
  const { index, row } = stations.probe;
  const [shown] = JSON.parse(succeeded(
    await t.cli("t/stations.parquet", "--rows", String(index), "--json"),
  ));
  deepStrictEqual(Object.keys(shown), stations.columns);
  for (const [column, value] of Object.entries(row)) {
    const got = typeof shown[column] === "string" &&
        /^\d{4}-\d\d-\d\dT/.test(shown[column])
      ? Date.parse(shown[column])
      : column === "big"
      ? String(shown[column])
      : shown[column];
    deepStrictEqual(got, value, column);
  }
  const { header, rows } = csv(
    succeeded(await t.cli("t/stations.parquet", "--columns", "id,flag")),
  );
  deepStrictEqual(header, ["id", "flag"]);
  equal(rows.length, stations.rows);
  equal(rows.reduce((s, r) => s + Number(r[0]), 0), stations.sums.id);
  equal(rows.filter((r) => r[1] === "true").length, stations.sums.flag);
  const some = csv(succeeded(
    await t.cli("t/stations.parquet", "--columns", "id", "--rows", "1498:1502"),
  ));
  deepStrictEqual(some.rows, [["1498"], ["1499"], ["1500"], ["1501"]]);
});

Deno.test("show: rows of a .tab file, quoted fields included, as CSV, JSON and an aligned table", async () => {
  await using t = await setup();
  equal(
    succeeded(await t.cli("obs.tab")),
    'station,temp,note\nA,1.5,"x, ""y"""\nB,2.25,z\nC,-3,\n',
  );
  deepStrictEqual(
    JSON.parse(succeeded(
      await t.cli(
        "obs.tab",
        "--columns",
        "note,station",
        "--rows",
        "0:2",
        "--json",
      ),
    )),
    [{ note: 'x, "y"', station: "A" }, { note: "z", station: "B" }],
  );
  equal(
    succeeded(await t.cli("obs.tab", "--format", "table", "--rows", "1:")),
    "station  temp  note\nB        2.25  z\nC        -3\n",
  );
});

Deno.test("show: a window of a GeoTIFF's bands", async () => {
  await using t = await setup();
  const gdal = await readJson("geotiff/cog.tif.json");
  const [left, top] = gdal.windows[0].window;
  const { header, rows } = csv(succeeded(
    await t.cli(
      "maps/cog.tif",
      "--slice",
      `${top}:${top + 2},${left}:${left + 3}`,
    ),
  ));
  deepStrictEqual(header, ["row", "column", "band_1", "band_2"]);
  const width = gdal.windows[0].window[2] - left;
  const at = (r: number, c: number) => r * width + c;
  deepStrictEqual(
    rows.map((row) => row.map(Number)),
    [0, 1].flatMap((r) =>
      [0, 1, 2].map((c) => [
        top + r,
        left + c,
        gdal.windows[0].bands[0].values[at(r, c)],
        gdal.windows[0].bands[1].values[at(r, c)],
      ])
    ),
  );
});

Deno.test("show: a missing variable, column or file and a bad slice are one line and exit 1", async () => {
  await using t = await setup();
  failed(
    await t.cli("netcdf4.nc", "--var", "pressure"),
    1,
    /"netcdf4.nc" has no variable "pressure" \(it has: elevation, .*temperature/,
  );
  failed(
    await t.cli("classic.nc", "--var", "pressure"),
    1,
    /"classic.nc" has no variable "pressure" \(it has: .*temperature/,
  );
  failed(
    await t.cli("netcdf4.nc"),
    1,
    /name the variable of "netcdf4.nc" with --var \(it has: /,
  );
  failed(
    await t.cli("netcdf4.nc", "--var", "temperature", "--slice", "5"),
    1,
    /--slice "5": index 5 is out of range for dimension "time" \(size 5\)/,
  );
  failed(
    await t.cli("netcdf4.nc", "--var", "temperature", "--slice", "0,0,0,0"),
    1,
    /4 parts for 3 dimensions \(time, lat, lon\)/,
  );
  failed(
    await t.cli("netcdf4.nc", "--var", "temperature", "--slice", "0,a:b"),
    1,
    /"a:b" is not an index or a start:stop:step range/,
  );
  failed(
    await t.cli("netcdf4.nc", "--var", "temperature", "--slice", "::0"),
    1,
    /step 0 for dimension "time" \(size 5\) must be >= 1/,
  );
  failed(
    await t.cli("t/stations.parquet", "--columns", "id,altitude"),
    1,
    /has no column "altitude" \(it has id, big/,
  );
  failed(
    await t.cli("obs.tab", "--columns", "depth"),
    1,
    /"obs.tab" has no column "depth" \(it has station, temp, note\)/,
  );
  failed(await t.cli("obs.tab", "--rows", "two"), 1, /--rows "two": expected/);
  failed(
    await t.cli("notes.txt"),
    1,
    /"notes.txt" is not a file show reads \(NetCDF, .*\); see cat/,
  );
  failed(await t.cli("nowhere.nc", "--var", "x"), 1, /nowhere\.nc/);
  failed(
    await t.cli("netcdf4.nc", "--columns", "a"),
    2,
    /--columns does not apply to "netcdf4.nc", an array/,
  );
  failed(await t.cli("obs.tab", "--format", "xml"), 2, /--format must be csv/);
  failed(
    await t.cli("grid.zarr", "--var", "big"),
    1,
    /"big" has 2000000 values \(shape \[2000, 1000\]\): pick some with --slice/,
  );
  equal(
    succeeded(await t.cli("grid.zarr", "--var", "big", "--slice=-1,998:")),
    "dim_1,big\n998,-1.5\n999,-1.5\n",
  );
});

/** A zip holding `bytes` as `name`, written by the system's `zip`. */
async function zipOf(name: string, bytes: Uint8Array): Promise<Uint8Array> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/${name.split("/").slice(0, -1).join("/")}`, {
      recursive: true,
    });
    await Deno.writeFile(`${dir}/${name}`, bytes);
    const { success } = await new Deno.Command("zip", {
      args: ["-q", "out.zip", name],
      cwd: dir,
    }).output();
    ok(success);
    return await Deno.readFile(`${dir}/out.zip`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("--max-line-bytes bounds the line cat --head/--tail and show of a CSV read, and goes only where a line is read", async () => {
  const wide = `a,b\n1,${"x".repeat(5000)}\n2,y\n`;
  await using emu = await startEmulator({
    files: { "wide.csv": wide, "netcdf4.nc": nc },
  });
  const cli = (...args: string[]) =>
    runCli(["--host", emu.host, "--pid", emu.pid, ...args]);
  const [head, tail, show, headAll, showAll, bad, alone, array] = await Promise
    .all([
      cli("cat", "wide.csv", "--head", "2", "--max-line-bytes", "1000"),
      cli("cat", "wide.csv", "--tail", "2", "--max-line-bytes", "1000"),
      cli("show", "wide.csv", "--max-line-bytes", "1000"),
      cli("cat", "wide.csv", "--head", "2", "--max-line-bytes", "5004"),
      cli("show", "wide.csv", "--rows", "1", "--max-line-bytes", "5004"),
      cli("cat", "wide.csv", "--head", "1", "--max-line-bytes", "0"),
      cli("cat", "wide.csv", "--max-line-bytes", "1000"),
      cli("show", "netcdf4.nc", "--max-line-bytes", "1000"),
    ]);
  for (const refused of [head, tail, show]) {
    equal(refused.code, 1, refused.stderr);
    ok(
      refused.stderr.includes("a line is longer than 1000 bytes") &&
        refused.stderr.includes("--max-line-bytes"),
      refused.stderr,
    );
  }
  equal(headAll.code, 0, headAll.stderr);
  equal(headAll.stdout, `a,b\n1,${"x".repeat(5000)}\n`);
  equal(showAll.code, 0, showAll.stderr);
  equal(showAll.stdout, "a,b\n2,y\n");
  equal(bad.code, 2);
  ok(bad.stderr.includes("--max-line-bytes must be >= 1, got 0"), bad.stderr);
  equal(alone.code, 2);
  ok(alone.stderr.includes("--max-line-bytes goes with --head or --tail"));
  equal(array.code, 2);
  ok(array.stderr.includes("--max-line-bytes does not apply"), array.stderr);
});

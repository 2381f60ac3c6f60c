// deno-lint-ignore-file no-import-prefix -- the Parquet writer, kept out of deno.json
/**
 * The files of `bench/peers.ts`, each written by the tool its users would
 * use: a NetCDF4 file by netCDF4-python, a zip by Info-ZIP `zip`, a Parquet
 * file by Arrow's Rust writer (parquet-wasm).
 *
 * @module
 */

import init, {
  Compression,
  Table as WasmTable,
  writeParquet,
  WriterPropertiesBuilder,
} from "npm:parquet-wasm@0.7.1/esm";
import { makeVector, Table, tableToIPC } from "npm:apache-arrow@21.2.0";

/** The NetCDF4 variable's shape after its time steps: lat × lon. */
export const GRID = [360, 720] as const;

/**
 * Writes `dir/climate.nc`: `temperature`, `steps` × 360 × 720 float32 in
 * chunks of one step, zlib level 1 (~670 KiB a chunk), with Debian's python3.
 */
export async function writeNetcdf(dir: string, steps: number): Promise<void> {
  const script = `
import netCDF4, numpy as np
rng = np.random.default_rng(1)
with netCDF4.Dataset("${dir}/climate.nc", "w") as ds:
    ds.createDimension("time", None)
    ds.createDimension("lat", ${GRID[0]})
    ds.createDimension("lon", ${GRID[1]})
    t = ds.createVariable("temperature", "f4", ("time", "lat", "lon"), zlib=True, complevel=1, chunksizes=(1, ${
    GRID[0]
  }, ${GRID[1]}))
    for i in range(${steps}):
        t[i] = rng.random((${GRID[0]}, ${GRID[1]}), dtype="f4") * 40 + 250
`;
  await run("/usr/bin/python3", ["-c", script], dir);
}

/**
 * Writes `dir/big.zip`: `members` stored blobs of 64 KiB random bytes
 * (`blobs/00000.bin`, ...) with `tables/target.csv` (~2.4 MB, deflated) in
 * the middle; resolves to the blobs' names and the CSV's bytes.
 */
export async function writeZip(
  dir: string,
  members: number,
): Promise<{ blobs: string[]; target: Uint8Array }> {
  const work = await Deno.makeTempDir({ dir });
  await Deno.mkdir(`${work}/blobs`);
  const blobs: string[] = [];
  for (let i = 0; i < members; i++) {
    const name = `blobs/${String(i).padStart(5, "0")}.bin`;
    await Deno.writeFile(
      `${work}/${name}`,
      crypto.getRandomValues(new Uint8Array(65_536)),
    );
    blobs.push(name);
  }
  await Deno.mkdir(`${work}/tables`);
  const csv = ["day,station,value"];
  for (let i = 0; i < 150_000; i++) {
    csv.push(`${i % 365},st${i % 97},${(Math.random() * 1000).toFixed(3)}`);
  }
  const target = new TextEncoder().encode(csv.join("\n") + "\n");
  await Deno.writeFile(`${work}/${ZIP_TARGET}`, target);
  const half = blobs.length >> 1;
  await run("/usr/bin/zip", [
    "-q",
    "-n",
    ".bin",
    `${dir}/big.zip`,
    ...blobs.slice(0, half),
    ZIP_TARGET,
    ...blobs.slice(half),
  ], work);
  await Deno.remove(work, { recursive: true });
  return { blobs, target };
}

/** The deflated member of `big.zip`. */
export const ZIP_TARGET = "tables/target.csv";

/** Rows in each row group of `big.parquet`. */
export const ROW_GROUP = 120_000;

/**
 * Writes `dir/big.parquet`: `rows` rows in row groups of 120,000, columns
 * `id` (int32) and `x`, `y`, `z` (random float64), snappy; resolves to `x`.
 */
export async function writeParquetFile(
  dir: string,
  rows: number,
): Promise<Float64Array> {
  await init();
  const random = () => Float64Array.from({ length: rows }, Math.random);
  const x = random();
  const file = writeParquet(
    WasmTable.fromIPCStream(tableToIPC(
      new Table({
        id: makeVector(Int32Array.from({ length: rows }, (_, i) => i)),
        x: makeVector(x),
        y: makeVector(random()),
        z: makeVector(random()),
      }),
      "stream",
    )),
    new WriterPropertiesBuilder()
      .setCompression(Compression.SNAPPY)
      .setMaxRowGroupSize(ROW_GROUP)
      .build(),
  );
  await Deno.writeFile(`${dir}/big.parquet`, file);
  return x;
}

async function run(command: string, args: string[], cwd: string) {
  const done = await new Deno.Command(command, { args, cwd }).output();
  if (!done.success) throw new Error(new TextDecoder().decode(done.stderr));
}

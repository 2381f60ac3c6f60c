// deno-lint-ignore-file no-import-prefix -- the Parquet writer, kept out of deno.json
/**
 * The ~100 MB files of the format benchmarks (`peers.ts`, `hdf5_slice.ts`,
 * `zip_member.ts`, `parquet_column.ts`), each written by the tool its users
 * would use: a NetCDF4 file by netCDF4-python, a zip by Info-ZIP `zip`, a Parquet
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
 * chunks of one step, zlib level 1 (~670 KiB a chunk), with `python`'s
 * netCDF4, or, where it has none, the same variable with h5py (plain HDF5).
 */
export async function writeNetcdf(
  dir: string,
  steps: number,
  python = "/usr/bin/python3",
): Promise<void> {
  const [lat, lon] = GRID;
  const script = `
import numpy as np
rng = np.random.default_rng(1)
steps = (rng.random((${lat}, ${lon}), dtype="f4") * 40 + 250 for _ in range(${steps}))
try:
    import netCDF4
except ImportError:
    import h5py
    with h5py.File("${dir}/climate.nc", "w") as f:
        t = f.create_dataset("temperature", (${steps}, ${lat}, ${lon}), "f4", chunks=(1, ${lat}, ${lon}), compression="gzip", compression_opts=1)
        for i, step in enumerate(steps):
            t[i] = step
else:
    with netCDF4.Dataset("${dir}/climate.nc", "w") as ds:
        ds.createDimension("time", None)
        ds.createDimension("lat", ${lat})
        ds.createDimension("lon", ${lon})
        t = ds.createVariable("temperature", "f4", ("time", "lat", "lon"), zlib=True, complevel=1, chunksizes=(1, ${lat}, ${lon}))
        for i, step in enumerate(steps):
            t[i] = step
`;
  await run(python, ["-c", script], dir);
}

/**
 * Writes `dir/big.zip` with Info-ZIP `zip` (`python`'s zipfile where there
 * is none): `members` stored blobs of 64 KiB random bytes (`blobs/00000.bin`,
 * ...) with `tables/target.csv` (~2.4 MB, deflated) in the middle; resolves
 * to the blobs' names and the CSV's bytes.
 */
export async function writeZip(
  dir: string,
  members: number,
  python = "/usr/bin/python3",
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
  const order = [...blobs.slice(0, half), ZIP_TARGET, ...blobs.slice(half)];
  const zip = await Deno.stat("/usr/bin/zip").then(() => true, () => false);
  if (zip) {
    await run(
      "/usr/bin/zip",
      ["-q", "-n", ".bin", `${dir}/big.zip`, ...order],
      work,
    );
  } else {
    await run(python, [
      "-c",
      `
import zipfile, sys
with zipfile.ZipFile("${dir}/big.zip", "w") as z:
    for name in sys.argv[1:]:
        z.write(name, compress_type=zipfile.ZIP_DEFLATED if name.endswith(".csv") else zipfile.ZIP_STORED)
`,
      ...order,
    ], work);
  }
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

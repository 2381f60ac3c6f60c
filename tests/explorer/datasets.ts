// The files the explorer's browser test serves: the sample dataset beside
// large files of each kind the explorer previews, made here so that a
// preview's bytes can be compared with the file's size.

// deno-lint-ignore-file no-import-prefix -- the Parquet writer, kept out of deno.json
import init, {
  Compression,
  Table as WasmTable,
  writeParquet,
  WriterPropertiesBuilder,
} from "npm:parquet-wasm@0.7.1/esm";
import {
  makeVector,
  Table,
  tableToIPC,
  Utf8,
  vectorFromArray,
} from "npm:apache-arrow@21.2.0";
import { encode } from "fast-png";
import { crc32 } from "../../src/formats/zip/crc32.ts";
import { sampleDataset } from "../../src/emulator/sample.ts";
import type { EmulatorFileSpec } from "../../emulator.ts";

const encoder = new TextEncoder();

/** Rows of the big CSV and Parquet files. */
export const ROWS = 600_000;
/** Rows per Parquet row group. */
const GROUP_ROWS = 6_000;

/** The big CSV's line `i` (0 is the header). */
export function csvLine(i: number): string {
  return i === 0
    ? "id,value,label"
    : `${i - 1},${((i - 1) * 0.25).toFixed(2)},"name ${i - 1}"`;
}

/** The big CSV: a header and `rows` rows. */
function bigCsv(rows: number): Uint8Array {
  const lines: string[] = [];
  for (let i = 0; i <= rows; i++) lines.push(csvLine(i));
  return encoder.encode(lines.join("\n") + "\n");
}

/** The Parquet file's row `i`. */
export function parquetRow(
  i: number,
): { id: number; value: number; label: string } {
  return { id: i, value: i * 0.5, label: `station-${i % 977}` };
}

/** A Parquet file of `rows` rows in row groups of {@linkcode GROUP_ROWS}, by Arrow's Rust writer. */
async function bigParquet(rows: number): Promise<Uint8Array> {
  await init();
  const ids = Int32Array.from({ length: rows }, (_, i) => i);
  const table = new Table({
    id: makeVector(ids),
    value: makeVector(Float64Array.from(ids, (i) => parquetRow(i).value)),
    label: vectorFromArray(
      Array.from(ids, (i) => parquetRow(i).label),
      new Utf8(),
    ),
  });
  const properties = new WriterPropertiesBuilder()
    .setCompression(Compression.SNAPPY)
    .setMaxRowGroupSize(GROUP_ROWS)
    .build();
  return writeParquet(
    WasmTable.fromIPCStream(tableToIPC(table, "stream")),
    properties,
  );
}

/** A zip of stored members, as `zip -0` writes it. */
export function storedZip(members: [string, Uint8Array][]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of members) {
    const nameBytes = encoder.encode(name);
    const crc = crc32(content);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 10, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, content.length, true);
    local.setUint32(22, content.length, true);
    local.setUint16(26, nameBytes.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 20, true);
    entry.setUint16(6, 10, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, content.length, true);
    entry.setUint32(24, content.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), nameBytes, content);
    central.push(new Uint8Array(entry.buffer), nameBytes);
    offset += 30 + nameBytes.length + content.length;
  }
  const centralSize = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, members.length, true);
  end.setUint16(10, members.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of all) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The members of the big zip: a CSV, `parts` parts of 100 KB, and a zip inside. */
function bigZip(parts: number): Uint8Array {
  const members: [string, Uint8Array][] = [
    ["readme.txt", encoder.encode("Forty parts of a survey.\n")],
    ["small.csv", encoder.encode("a,b\n1,2\n3,4\n")],
  ];
  for (let i = 0; i < parts; i++) {
    const lines = Array.from(
      { length: 4_000 },
      (_, j) => `${i},${j},${(i * j) % 97}`,
    );
    members.push([
      `parts/part-${String(i).padStart(3, "0")}.csv`,
      encoder.encode(lines.join("\n")),
    ]);
  }
  members.push([
    "inner.zip",
    storedZip([["deep.txt", encoder.encode("deep inside\n")]]),
  ]);
  return storedZip(members);
}

/** A 64 × 48 PNG gradient. */
function png(): Uint8Array {
  const width = 64;
  const height = 48;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    data.set([(i % width) * 4, Math.floor(i / width) * 5, 128], i * 3);
  }
  return encode({ width, height, data, channels: 3 });
}

/**
 * A NetCDF4 file of `steps` × 259 KB written by netCDF4-python (Debian's
 * `python3-netcdf4`): `temperature(time=100, lat=180, lon=360)` in chunks of
 * one time step; `undefined` where that writer is not installed.
 */
async function bigNetcdf(steps: number): Promise<Uint8Array | undefined> {
  const dir = await Deno.makeTempDir({ prefix: "repo-fs-explorer-nc-" });
  try {
    const file = `${dir}/climate.nc`;
    const script = [
      "import sys, numpy as np, netCDF4",
      "d = netCDF4.Dataset(sys.argv[1], 'w')",
      `d.createDimension('time', ${steps}); d.createDimension('lat', 180); d.createDimension('lon', 360)`,
      "v = d.createVariable('temperature', 'f4', ('time', 'lat', 'lon'), chunksizes=(1, 180, 360))",
      "v.units = 'K'",
      `t, y, x = np.meshgrid(np.arange(${steps}), np.arange(180), np.arange(360), indexing='ij')`,
      "v[:] = (250 + 0.3 * y + 10 * np.sin(x / 30.0 + t / 10.0)).astype('f4')",
      `d.createVariable('time', 'f8', ('time',))[:] = np.arange(${steps}) * 6.0`,
      "d.close()",
    ].join("\n");
    const { success } = await new Deno.Command("/usr/bin/python3", {
      args: ["-c", script, file],
      stdout: "null",
      stderr: "null",
    }).output().catch(() => ({ success: false }));
    return success ? await Deno.readFile(file) : undefined;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * The test dataset, and whether the big NetCDF file is in it; `scale`
 * multiplies the big files' sizes (1: 7 to 25 MB each).
 */
export async function explorerDataset(scale = 1): Promise<{
  files: Record<string, Uint8Array | string | EmulatorFileSpec>;
  hasNetcdf: boolean;
}> {
  const netcdf = await bigNetcdf(Math.round(100 * scale));
  const files: Record<string, Uint8Array | string | EmulatorFileSpec> = {
    ...await sampleDataset(16),
    "big/table.csv": bigCsv(Math.round(ROWS * scale)),
    "big/stations.parquet": await bigParquet(Math.round(ROWS * scale)),
    "big/survey.zip": bigZip(Math.round(40 * scale)),
    "pictures/gradient.png": png(),
    "maps/cog.tif": await Deno.readFile(
      new URL("../../fixtures/geotiff/cog.tif", import.meta.url),
    ),
    "docs/notes.md": "# Notes\n\nTaken on the first day.\n",
    "private/secret.csv": { content: "a,b\n1,2\n", restricted: true },
    ...(netcdf ? { "big/climate.nc": netcdf } : {}),
  };
  return { files, hasNetcdf: netcdf !== undefined };
}

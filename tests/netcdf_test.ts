import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import * as zarr from "zarrita";
import { ReferenceStore } from "@zarrita/storage";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { hdf5References, hdf5Store } from "../hdf5.ts";
import { NetcdfFormatError, netcdfReferences, netcdfStore } from "../netcdf.ts";
import { parseHeader } from "../src/formats/netcdf/header.ts";
import { FIRST_READ_BYTES } from "../src/formats/hdf5/file_reader.ts";
import { runCapped } from "./memory_cap.ts";
import { runCli } from "./support.ts";
import { damagedHeaders, readAll } from "./netcdf_damage.ts";

const DIR = new URL("../fixtures/netcdf/", import.meta.url);
const MADE = [
  "classic.nc",
  "offset64.nc",
  "cdf5.nc",
  "one_record.nc",
  "no_records.nc",
  "records.nc",
];
const REAL = [
  "ref_nctest_classic.nc",
  "ref_nctest_64bit_offset.nc",
  "ref_null_byte_padding_test.nc",
  "ref_test_360_day_1900.nc",
];

interface Expected {
  format: string;
  dimensions: Record<string, { size: number; unlimited: boolean }>;
  attrs: Record<string, unknown>;
  variables: Record<string, {
    dtype: string;
    shape: number[];
    dimensions: string[];
    attrs: Record<string, unknown>;
    values?: unknown[];
    sum?: number;
    head?: number[];
    tail?: number[];
  }>;
}

const EXPECTED: Record<string, Expected> = {
  ...JSON.parse(await Deno.readTextFile(new URL("expected.json", DIR))),
  ...JSON.parse(await Deno.readTextFile(new URL("real/expected.json", DIR))),
};

async function fixtures(): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const name of MADE) {
    files[name] = await Deno.readFile(new URL(name, DIR));
  }
  for (const name of [...REAL, "bad_cdf5_begin.nc"]) {
    files[name] = await Deno.readFile(new URL(`real/${name}`, DIR));
  }
  files["netcdf4.nc"] = await Deno.readFile(
    new URL("../fixtures/hdf5/netcdf4.nc", import.meta.url),
  );
  return files;
}

/** Values as netCDF4 reads them: numbers, and characters one by one (as zarrita decodes `|S1`, UTF-8). */
function comparable(data: unknown): unknown[] {
  return Array.from(
    data as ArrayLike<unknown>,
    (x) =>
      typeof x === "bigint"
        ? Number(x)
        : typeof x === "string"
        ? x
        : x as number,
  );
}

function expectedValues(values: unknown[]): unknown[] {
  return values.map((v) =>
    typeof v === "string" && v.length === 1 && v.charCodeAt(0) >= 0x80
      ? "\ufffd"
      : v
  );
}

/** Checks values of a variable (all of them) against netCDF4's. */
function assertValues(
  what: string,
  data: unknown,
  expected: Expected["variables"][string],
): void {
  const values = comparable(data);
  if (expected.values) {
    deepStrictEqual(values, expectedValues(expected.values), what);
    return;
  }
  deepStrictEqual(values.slice(0, 50), expected.head, `${what}: head`);
  deepStrictEqual(values.slice(-50), expected.tail, `${what}: tail`);
  const sum = (values as number[]).reduce((a, b) => a + b, 0);
  ok(
    Math.abs(sum - expected.sum!) <=
      1e-9 * Math.max(1, Math.abs(expected.sum!)),
    `${what}: sum ${sum}, expected ${expected.sum}`,
  );
}

/** The dtype netCDF4 names (`i2`) as a big-endian Zarr dtype. */
function zarrDtype(dtype: string): string {
  return dtype === "S1"
    ? "|S1"
    : dtype.endsWith("1")
    ? `|${dtype}`
    : `>${dtype}`;
}

Deno.test("every variable and attribute of CDF-1, CDF-2 and CDF-5 files by netCDF4, and of netCDF-C's test files, reads through zarrita as netCDF4 reads it", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const file of [...MADE, ...REAL]) {
    const expected = EXPECTED[file];
    const group = await zarr.open(netcdfStore(fs, file), { kind: "group" });
    deepStrictEqual(group.attrs, expected.attrs, `${file}: global attributes`);
    for (const [name, v] of Object.entries(expected.variables)) {
      const what = `${file} ${name}`;
      const arr = await zarr.open(group.resolve(name), { kind: "array" });
      deepStrictEqual(arr.shape, v.shape, `${what}: shape`);
      const { _ARRAY_DIMENSIONS, ...attrs } = arr.attrs;
      deepStrictEqual(_ARRAY_DIMENSIONS, v.dimensions, `${what}: dimensions`);
      deepStrictEqual(attrs, v.attrs, `${what}: attributes`);
      const zarray = JSON.parse(
        new TextDecoder().decode(
          await netcdfStore(fs, file).get(`/${name}/.zarray`),
        ),
      );
      equal(zarray.dtype, zarrDtype(v.dtype), `${what}: dtype`);
      if (v.dimensions[0] && expected.dimensions[v.dimensions[0]].unlimited) {
        equal(arr.chunks[0], 1, `${what}: one chunk per record`);
      }
      assertValues(what, await readAll(arr), v);
    }
  }
  // Every type of CDF-5, and the fill value and scale of a packed variable, as written.
  const cdf5 = await zarr.open(netcdfStore(fs, "cdf5.nc"), { kind: "group" });
  const u8 = await zarr.open(cdf5.resolve("rec_u8"), { kind: "array" });
  ok((await zarr.get(u8)).data instanceof BigUint64Array);
  const temperature = await zarr.open(cdf5.resolve("temperature"), {
    kind: "array",
  });
  equal(temperature.fillValue, -32767);
  equal(temperature.attrs._FillValue, -32767);
  equal(temperature.attrs.scale_factor, Math.fround(0.01));
});

Deno.test("getArray reads classic files and NetCDF4 files alike, on a RepoFs and on a pool of 2", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const source of [fs, pool]) {
    for (const file of [...MADE, "ref_nctest_classic.nc"]) {
      for (const [name, v] of Object.entries(EXPECTED[file].variables)) {
        const { data, shape } = await getArray(source, file, name);
        deepStrictEqual(shape, v.shape, `${file} ${name}: shape`);
        assertValues(`${file} ${name}`, data, v);
      }
    }
    const slab = await getArray(source, "records.nc", "field", [
      zarr.slice(3, 17),
      5,
      zarr.slice(0, 4),
    ]);
    deepStrictEqual(shape(slab), [14, 4]);
    deepStrictEqual(comparable(slab.data).slice(0, 4), [
      30320,
      30321,
      30322,
      30323,
    ]);
    // No record yet: an empty array of the variable's type and shape.
    const none = await getArray(source, "no_records.nc", "v");
    deepStrictEqual(none.shape, [0, 3]);
    ok(none.data instanceof Float32Array && none.data.length === 0);
    deepStrictEqual(
      (await getArray(source, "no_records.nc", "v", [null, 1])).shape,
      [0],
    );
    // A NetCDF4 file through the same entry: it picks the HDF5 reader.
    const elevation = await getArray(source, "netcdf4.nc", "elevation");
    deepStrictEqual(
      comparable(elevation.data).slice(0, 3),
      [-100, -93, -86],
    );
  }
  const group = await zarr.open(netcdfStore(fs, "netcdf4.nc"), {
    kind: "group",
  });
  equal(group.attrs.title, "netCDF4 fixture");
  deepStrictEqual(await netcdfStore(fs, "netcdf4.nc").problems(), []);
});

function shape(result: { shape: number[] }): number[] {
  return result.shape;
}

Deno.test("one record of a record variable costs the first read, that record's slab and at most 64 KiB more; a whole record axis a few requests", async () => {
  const files = await fixtures();
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const bytes = files["records.nc"];
  const header = parseHeader(bytes, "records.nc", bytes.length);
  const field = header.variables.find((v) => v.name === "field")!;
  equal(field.slab, 64 * 64 * 4);

  emu.resetCounters();
  const arr = await zarr.open(
    zarr.root(netcdfStore(fs, "records.nc")).resolve("field"),
    { kind: "array" },
  );
  const { data } = await zarr.get(arr, [7, null, null]);
  deepStrictEqual(comparable(data).slice(0, 2), [70000, 70001]);
  const fetched = emu.counters.storeBytes;
  ok(
    fetched <= Math.max(FIRST_READ_BYTES, header.length) + field.slab +
        64 * 1024,
    `${fetched} bytes fetched for a header of ${header.length} and a slab of ${field.slab}`,
  );

  emu.resetCounters();
  const time = await getArray(fs, "records.nc", "time");
  deepStrictEqual(
    comparable(time.data),
    EXPECTED["records.nc"].variables.time.values,
  );
  // 20 records of 8 bytes spread over 328 KB, 16 KiB apart: merged into one request.
  ok(emu.counters.storeGets <= 2, `${emu.counters.storeGets} requests`);

  // A small file comes whole in the first read, its records with it.
  emu.resetCounters();
  await getArray(fs, "classic.nc", "time");
  equal(emu.counters.storeGets, 1);
});

Deno.test("kerchunk references of classic files read back the same values through zarrita's ReferenceStore", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const file of [...MADE, ...REAL]) {
    const references = await netcdfReferences(fs, file);
    equal(references.version, 1);
    const url = `${emu.host}/api/access/datafile/${emu.fileId(file)}`;
    for (const ref of Object.values(references.refs)) {
      if (Array.isArray(ref)) equal(ref[0], url);
    }
    const group = await zarr.open(
      ReferenceStore.fromSpec(references as never),
      { kind: "group" },
    );
    deepStrictEqual(group.attrs, EXPECTED[file].attrs);
    for (const [name, v] of Object.entries(EXPECTED[file].variables)) {
      const arr = await zarr.open(group.resolve(name), { kind: "array" });
      deepStrictEqual(arr.attrs._ARRAY_DIMENSIONS, v.dimensions);
      assertValues(`refs ${file} ${name}`, await readAll(arr), v);
    }
  }
  // A NetCDF4 file's references are hdf5References'.
  deepStrictEqual(
    await netcdfReferences(fs, "netcdf4.nc"),
    await hdf5References(fs, "netcdf4.nc"),
  );
  const netcdf4 = await netcdfReferences(fs, "netcdf4.nc", { paths: true });
  ok(Array.isArray(netcdf4.refs["elevation/0.0"]));
  equal((netcdf4.refs["elevation/0.0"] as unknown[])[0], "netcdf4.nc");
});

const PYTHON = "/usr/bin/python3";
const HAS_FSSPEC = await new Deno.Command(PYTHON, {
  args: ["-c", "import fsspec, netCDF4, numpy"],
  stdout: "null",
  stderr: "null",
}).output().then((o) => o.success, () => false);

Deno.test({
  name:
    "Python fsspec's ReferenceFileSystem reads every chunk of the references as the values netCDF4 reads",
  ignore: !HAS_FSSPEC,
  fn: async () => {
    await using emu = await startEmulator({ files: await fixtures() });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const dir = await Deno.makeTempDir();
    try {
      const jobs: [string, string][] = [];
      for (
        const file of [
          "classic.nc",
          "offset64.nc",
          "cdf5.nc",
          "one_record.nc",
          "ref_nctest_classic.nc",
        ]
      ) {
        const local = new URL(
          MADE.includes(file) ? file : `real/${file}`,
          DIR,
        ).pathname;
        const refs = await netcdfReferences(fs, file, { url: local });
        const out = `${dir}/${file}.json`;
        await Deno.writeTextFile(out, JSON.stringify(refs));
        jobs.push([out, local]);
      }
      const { success, stdout, stderr } = await new Deno.Command(PYTHON, {
        args: ["-c", FSSPEC_CHECK, JSON.stringify(jobs)],
      }).output();
      const said = new TextDecoder().decode(stdout);
      ok(success, new TextDecoder().decode(stderr));
      const report = JSON.parse(said);
      deepStrictEqual(report.mismatches, []);
      ok(report.checked > 100, said);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** Reads each chunk through fsspec and compares it with netCDF4's values of that part of the variable. */
const FSSPEC_CHECK = `
import json, sys
import fsspec, netCDF4, numpy as np
checked, mismatches = 0, []
for refs_path, nc_path in json.loads(sys.argv[1]):
    refs = json.load(open(refs_path))
    fs = fsspec.filesystem("reference", fo=refs)
    with netCDF4.Dataset(nc_path) as ds:
        ds.set_auto_maskandscale(False)
        ds.set_auto_chartostring(False)
        for name, var in ds.variables.items():
            meta = json.loads(fs.cat(name + "/.zarray"))
            attrs = json.loads(fs.cat(name + "/.zattrs"))
            if attrs["_ARRAY_DIMENSIONS"] != list(var.dimensions):
                mismatches.append([nc_path, name, "dimensions"])
            values = np.asarray(var[...])
            rows = meta["chunks"][0] if meta["shape"] else 1
            for key in fs.ls(name, detail=False):
                last = key.rsplit("/", 1)[1]
                if last.startswith("."):
                    continue
                index = int(last.split(".")[0])
                chunk = np.frombuffer(fs.cat(key), dtype=meta["dtype"])
                want = values.reshape(-1) if not meta["shape"] else values[index * rows:(index + 1) * rows].reshape(-1)
                checked += 1
                if chunk.tobytes() != want.astype(meta["dtype"]).tobytes():
                    mismatches.append([nc_path, key])
print(json.dumps({"checked": checked, "mismatches": mismatches}))
`;

Deno.test("damaged headers: a sample of truncations and byte flips gives the values or a NetcdfFormatError", async () => {
  // Every 8th of the sweep; netcdf_damage_full_test.ts reads the rest.
  const outcomes = await damagedHeaders((index) => index % 8 === 0);
  ok(outcomes.refused > 10 && outcomes.read > 2, JSON.stringify(outcomes));
});

Deno.test("a CDF-5 variable that begins past the end of the file is refused by name", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  // netCDF-C refuses this one (a variable of 8.6 GB begins in a 220-byte file); so do we, by name.
  await rejects(
    zarr.open(netcdfStore(fs, "bad_cdf5_begin.nc"), { kind: "group" }),
    (error: Error) =>
      error instanceof NetcdfFormatError &&
      /variable "var_big": .*past the end of the file \(220 bytes\)/.test(
        error.message,
      ),
  );
  await rejects(
    getArray(fs, "bad_cdf5_begin.nc", "var_small"),
    NetcdfFormatError,
  );
});

/** Builds, in the capped child, CDF headers that claim absurd counts and sizes. */
const HOSTILE_SETUP = `
const { startEmulator } = await import(REPO + "emulator.ts");
const { RepoFs } = await import(REPO + "mod.ts");
const { netcdfStore } = await import(REPO + "netcdf.ts");
const zarr = await import("zarrita");
const records = await Deno.readFile(new URL("fixtures/netcdf/records.nc", REPO));
const big = new Uint8Array(4 * 2 ** 20);
big.set(new TextEncoder().encode("CDF\\x05"));
// CDF-5: no records, then a dimension list claiming 2^40 dimensions.
new DataView(big.buffer).setUint32(12, 10);
new DataView(big.buffer).setBigUint64(16, 2n ** 40n);
// CDF-5: no dimensions, one global attribute "a" of 2^50 doubles.
const attribute = big.slice();
const a = new DataView(attribute.buffer);
a.setUint32(12, 0);
a.setBigUint64(16, 0n);
a.setUint32(24, 12);
a.setBigUint64(28, 1n);
a.setBigUint64(36, 1n);
a.setUint32(44, 0x61000000);
a.setUint32(48, 6);
a.setBigUint64(52, 2n ** 50n);
// records.nc (CDF-2) claiming 2^31 - 1 records, and a y dimension of 2^31 - 1.
const manyRecords = records.slice();
new DataView(manyRecords.buffer).setUint32(4, 2 ** 31 - 1);
const wide = records.slice();
new DataView(wide.buffer).setUint32(36, 2 ** 31 - 1);
// CDF-1 with n scalar int variables named v0000000, v0000001, …
const manyVariables = (n) => {
  const header = 32 + 36 * n;
  const bytes = new Uint8Array(header + 4 * n);
  const view = new DataView(bytes.buffer);
  bytes.set([0x43, 0x44, 0x46, 1]);
  view.setUint32(24, 11);
  view.setUint32(28, n);
  for (let i = 0; i < n; i++) {
    const at = 32 + 36 * i;
    view.setUint32(at, 8);
    bytes.set(new TextEncoder().encode("v" + String(i).padStart(7, "0")), at + 4);
    view.setUint32(at + 24, 4);
    view.setUint32(at + 28, 4);
    view.setUint32(at + 32, header + 4 * i);
  }
  return bytes;
};
const emu = await startEmulator({
  files: {
    "dims.nc": big, "attribute.nc": attribute, "records.nc": manyRecords, "wide.nc": wide,
    "many.nc": manyVariables(90_000), "too_many.nc": manyVariables(100_001),
  },
});
const fs = new RepoFs({ host: emu.host, pid: emu.pid });
const refusal = async (name) => {
  emu.resetCounters();
  try {
    const group = await zarr.open(netcdfStore(fs, name), { kind: "group" });
    const field = await zarr.open(group.resolve("field"), { kind: "array" });
    await zarr.get(field);
    return "read";
  } catch (error) {
    return { name: error.name, message: error.message, bytes: emu.counters.storeBytes };
  }
};
`;

Deno.test("absurd counts and sizes in a header are refused by name before anything is allocated or fetched for them, and the most variables read stay under 300 MB, in a capped child", async () => {
  const run = await runCapped({
    setup: HOSTILE_SETUP,
    read: `(async () => {
      const out = {};
      for (const name of ["dims.nc", "attribute.nc", "records.nc", "wide.nc", "too_many.nc"]) out[name] = await refusal(name);
      // The most variables read: 90,000 (a 3.2 MB header), their last one read.
      const store = netcdfStore(fs, "many.nc");
      const last = await zarr.open(zarr.root(store).resolve("v0089999"), { kind: "array" });
      out.many = [last.shape, await zarr.get(last, [])];
      await emu.close();
      return out;
    })()`,
  }, 300);
  equal(run.code, 0, run.stderr);
  equal(run.killed, false);
  ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} vs ${run.baselineMb}`);
  const result = run.result as Record<
    string,
    { name: string; message: string; bytes: number }
  >;
  for (
    const [name, problem] of [
      ["dims.nc", /1099511627776 dimensions .* cannot fit in the header/],
      [
        "attribute.nc",
        /attribute "a" of the file claims 1125899906842624 values/,
      ],
      [
        "records.nc",
        /variable "time": its data .* runs past the end of the file/,
      ],
      [
        "wide.nc",
        /variable "(field|time)": its data .* runs past the end of the file/,
      ],
      [
        "too_many.nc",
        /100001 variables \(count at byte 28\), more than the 100000 read here/,
      ],
    ] as const
  ) {
    equal(result[name].name, "NetcdfFormatError", JSON.stringify(result[name]));
    ok(problem.test(result[name].message), result[name].message);
    ok(
      result[name].bytes <= FIRST_READ_BYTES,
      `${name}: ${result[name].bytes} bytes`,
    );
  }
  deepStrictEqual(result.many, [[], 0]);
});

Deno.test("a file that is no NetCDF of either kind says so", async () => {
  await using emu = await startEmulator({
    files: { "notes.nc": "plain text" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(
    zarr.open(netcdfStore(fs, "notes.nc"), { kind: "group" }),
    (error: Error) =>
      error instanceof NetcdfFormatError &&
      /"notes.nc": no NetCDF signature: neither classic \(CDF\) nor NetCDF4\/HDF5/
        .test(error.message),
  );
});

Deno.test("repo-fs info names a classic file's format, dimensions and variables; refs prints its references", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const json = await runCli([...target, "--json", "info", "records.nc"]);
  equal(json.code, 0, json.stderr);
  const listing = JSON.parse(json.stdout);
  equal(listing.format, "CDF-2 (64-bit offset)");
  deepStrictEqual(listing.dimensions, [
    { name: "time", size: 20, unlimited: true },
    { name: "y", size: 64, unlimited: false },
    { name: "x", size: 64, unlimited: false },
  ]);
  deepStrictEqual(listing.variables, [
    {
      path: "field",
      shape: [20, 64, 64],
      dtype: ">f4",
      chunks: [1, 64, 64],
      dimensions: ["time", "y", "x"],
      codecs: [],
    },
    {
      path: "time",
      shape: [20],
      dtype: ">f8",
      chunks: [1],
      dimensions: ["time"],
      codecs: [],
    },
  ]);
  deepStrictEqual(listing.problems, []);

  const text = await runCli([...target, "info", "cdf5.nc"]);
  equal(text.code, 0, text.stderr);
  for (
    const line of [
      "classic NetCDF, CDF-5 (64-bit data)",
      "5 dimensions: time = 3 (unlimited), y = 3, x = 4, station = 2, name_len = 6",
      `${Object.keys(EXPECTED["cdf5.nc"].variables).length} variables:`,
      "  rec_u8  >u8 [3, 4] (time, x)  chunks [1, 4]",
      "  names  |S1 [2, 6] (station, name_len)  contiguous",
      "  height  >f4 []  contiguous",
    ]
  ) ok(text.stdout.includes(`${line}\n`), `${line}\n${text.stdout}`);

  const refs = await runCli([...target, "refs", "classic.nc"]);
  equal(refs.code, 0, refs.stderr);
  deepStrictEqual(
    JSON.parse(refs.stdout),
    await netcdfReferences(fs, "classic.nc"),
  );
  const refused = await runCli([...target, "refs", "bad_cdf5_begin.nc"]);
  equal(refused.code, 1);
  ok(
    /Not a readable NetCDF file "bad_cdf5_begin.nc", variable "var_big"/.test(
      refused.stderr,
    ),
    refused.stderr,
  );
});

Deno.test("a streaming file (record count all ones) holds as many records as fit; a NetCDF4 file costs netcdfStore no more requests than hdf5Store", async () => {
  const files = await fixtures();
  const streaming = files["records.nc"].slice();
  new DataView(streaming.buffer).setUint32(4, 0xffffffff);
  await using emu = await startEmulator({
    files: { "streaming.nc": streaming, "netcdf4.nc": files["netcdf4.nc"] },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const time = await getArray(fs, "streaming.nc", "time");
  deepStrictEqual(
    comparable(time.data),
    EXPECTED["records.nc"].variables.time.values,
  );

  const requests = async (open: () => Promise<unknown>) => {
    fs.refresh();
    await fs.info("netcdf4.nc");
    emu.resetCounters();
    await open();
    return [emu.counters.storeGets, emu.counters.storeBytes];
  };
  const read = (store: zarr.Readable) => async () => {
    const arr = await zarr.open(zarr.root(store).resolve("temperature"), {
      kind: "array",
    });
    return await zarr.get(arr, [1, null, null]);
  };
  const [viaHdf5] = await requests(read(hdf5Store(fs, "netcdf4.nc")));
  const [viaNetcdf] = await requests(read(netcdfStore(fs, "netcdf4.nc")));
  ok(viaNetcdf <= viaHdf5, `${viaNetcdf} requests against ${viaHdf5}`);
});

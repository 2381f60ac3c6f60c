import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import * as zarr from "zarrita";
import { ReferenceStore } from "@zarrita/storage";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import {
  Hdf5FormatError,
  hdf5References,
  hdf5Store,
  Hdf5UnsupportedError,
} from "../hdf5.ts";
import {
  FIRST_READ_BYTES,
  PAGE_SIZE,
} from "../src/formats/hdf5/file_reader.ts";
import { readZarrView } from "../src/formats/hdf5/zarr_view.ts";
import { runCli } from "./support.ts";

const DIR = new URL("../fixtures/hdf5/", import.meta.url);
const FILES = [
  "h5py.h5",
  "netcdf4.nc",
  "latest.h5",
  "many_chunks.h5",
  "big_chunks.nc",
  "contiguous.h5",
];

interface Expected {
  shape: number[];
  dtype: string;
  chunks?: number[] | null;
  sum?: number;
  probe?: { index: number; value: number };
  dimensions?: string[];
  attrs?: Record<string, unknown>;
}

const EXPECTED: Record<string, Record<string, Expected>> = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", DIR)),
);

/** Variables h5py or netCDF4 wrote that have no Zarr form, and why. */
const UNMAPPABLE: Record<string, string[]> = {
  "h5py.h5": ["compound"],
  "netcdf4.nc": [],
  "latest.h5": [],
};

async function fixtures(): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const name of FILES) {
    files[name] = await Deno.readFile(new URL(name, DIR));
  }
  return files;
}

function numbersOf(data: unknown): number[] {
  return Array.from(data as ArrayLike<number | bigint>, Number);
}

/** Checks decoded values against the sum and the probe h5py/netCDF4 computed. */
function assertValues(
  name: string,
  result: { data: unknown; shape: number[] },
  expected: Expected,
): void {
  deepStrictEqual(result.shape, expected.shape, `${name}: shape`);
  const values = numbersOf(result.data);
  const sum = values.reduce((a, b) => a + b, 0);
  ok(
    Math.abs(sum - expected.sum!) <=
      1e-9 * Math.max(1, Math.abs(expected.sum!)),
    `${name}: sum ${sum}, expected ${expected.sum}`,
  );
  equal(values[expected.probe!.index], expected.probe!.value, `${name}: probe`);
}

/** All of an array; a zero-dimensional one as shape `[]` and its one value. */
async function readAll(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
): Promise<{ data: unknown; shape: number[] }> {
  if (arr.shape.length > 0) return await zarr.get(arr);
  return { data: [await zarr.get(arr, [])], shape: [] };
}

function numeric(file: string): [string, Expected][] {
  return Object.entries(EXPECTED[file]).filter(([, e]) => e.sum !== undefined);
}

Deno.test("every dataset of an h5py file, a netCDF4 file and a libver='latest' file reads through zarrita as h5py/netCDF4 read it", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  // latest.h5 indexes chunks by fixed array (paged too), extensible array, v2 B-tree and single chunk.
  for (const file of ["h5py.h5", "netcdf4.nc", "latest.h5"]) {
    const store = hdf5Store(fs, file);
    const group = await zarr.open(store, { kind: "group" });
    for (const [path, expected] of Object.entries(EXPECTED[file])) {
      if (UNMAPPABLE[file].includes(path)) continue;
      const arr = await zarr.open(group.resolve(path), { kind: "array" });
      deepStrictEqual(arr.shape, expected.shape, `${file} ${path}: shape`);
      if (expected.chunks) {
        deepStrictEqual(arr.chunks, expected.chunks, `${file} ${path}: chunks`);
      }
      if (expected.dimensions) {
        deepStrictEqual(
          arr.attrs._ARRAY_DIMENSIONS,
          expected.dimensions,
          `${file} ${path}: dims`,
        );
      }
      if (expected.attrs) {
        const { _FillValue: _, ...shown } = expected.attrs;
        const { _ARRAY_DIMENSIONS: __, ...attrs } = arr.attrs;
        deepStrictEqual(attrs, shown, `${file} ${path}: attributes`);
      }
      if (expected.sum === undefined) continue;
      assertValues(`${file} ${path}`, await readAll(arr), expected);
    }
  }
  const root = await zarr.open(hdf5Store(fs, "netcdf4.nc"), { kind: "group" });
  deepStrictEqual(root.attrs, {
    title: "netCDF4 fixture",
    Conventions: "CF-1.8",
  });
});

Deno.test("a fill value, an unwritten chunk and a fixed-length string dataset of an h5py file", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const group = await zarr.open(hdf5Store(fs, "h5py.h5"), { kind: "group" });
  const sparse = await zarr.open(group.resolve("sparse"), { kind: "array" });
  equal(sparse.fillValue, -7);
  const corner = await zarr.get(sparse, [zarr.slice(4, 8), zarr.slice(0, 4)]);
  deepStrictEqual(numbersOf(corner.data), new Array(16).fill(-7));
  const strings = await zarr.open(group.resolve("fixed_strings"), {
    kind: "array",
  });
  const { data } = await zarr.get(strings);
  deepStrictEqual(Array.from(data as Iterable<string>), ["ab", "cde"]);
  equal(group.attrs.title, "h5py fixture");
});

Deno.test("variables that cannot be mapped are named, and the rest of the file stays readable", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const store = hdf5Store(fs, "h5py.h5");
  const problems = await store.problems();
  deepStrictEqual(problems.map((p) => p.path).sort(), UNMAPPABLE["h5py.h5"]);
  const group = await zarr.open(store, { kind: "group" });
  await rejects(
    zarr.open(group.resolve("compound"), { kind: "array" }),
    (error: Error) =>
      error instanceof Hdf5UnsupportedError && error.variable === "compound" &&
      error.path === "h5py.h5" && /compound/.test(error.message),
  );
  const counts = await zarr.open(group.resolve("counts"), { kind: "array" });
  assertValues("counts", await zarr.get(counts), EXPECTED["h5py.h5"].counts);
});

Deno.test("getArray takes an HDF5/NetCDF4 file as its root, on a RepoFs and on a pool of 2", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const source of [fs, pool]) {
    for (
      const file of ["h5py.h5", "netcdf4.nc", "latest.h5", "big_chunks.nc"]
    ) {
      for (const [path, expected] of numeric(file)) {
        const result = await getArray(source, file, path);
        assertValues(`${file} ${path}`, result, expected);
      }
    }
  }
  const extensible = await getArray(pool, "latest.h5", "extensible");
  assertValues(
    "latest.h5 extensible",
    extensible,
    EXPECTED["latest.h5"].extensible,
  );
  const rows = await getArray(pool, "many_chunks.h5", "grid", [
    zarr.slice(5_000, 5_100),
  ]);
  deepStrictEqual(numbersOf(rows.data).slice(0, 2), [20_000, 20_001]);
  const slice = await getArray(pool, "netcdf4.nc", "temperature", [
    zarr.slice(1, 3),
    2,
  ]);
  deepStrictEqual(slice.shape, [2, 8]);
  deepStrictEqual(numbersOf(slice.data).slice(0, 2), [
    (48 + 16) / 4 + 250,
    (48 + 17) / 4 + 250,
  ]);
});

Deno.test("the store of a file with 10,000 chunks is built in round trips that grow with its B-tree's depth", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const view = await readZarrView(fs, "many_chunks.h5");
  const { layout } = view.arrays.get("grid")!.dataset;
  const root = layout.kind === "chunked" ? layout.address : -1;
  const node = await fs.catFile("many_chunks.h5", {
    start: root,
    end: root + 8,
  });
  const depth = node[5] + 1; // the root node's level, 0 for a leaf
  ok(depth >= 2, `depth ${depth}`);
  equal((await view.arrays.get("grid")!.refs()).size, 10_000);

  emu.resetCounters();
  const store = hdf5Store(fs, "many_chunks.h5");
  const grid = await zarr.open(zarr.root(store).resolve("grid"), {
    kind: "array",
  });
  const row = await zarr.get(grid, [9_999, null]);
  deepStrictEqual(numbersOf(row.data), [39_996, 39_997, 39_998, 39_999]);
  const roundTrips = emu.counters.storeGets;
  ok(
    roundTrips <= 2 * depth + 6,
    `${roundTrips} requests for a B-tree of depth ${depth}`,
  );
});

Deno.test("reading one chunk of a NetCDF variable fetches the chunk and metadata pages", async () => {
  const files = await fixtures();
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { refs } = await hdf5References(fs, "big_chunks.nc");
  const [, , chunkLength] = refs["field/3.0.0"] as [string, number, number];

  emu.resetCounters();
  const store = hdf5Store(fs, "big_chunks.nc");
  const field = await zarr.open(zarr.root(store).resolve("field"), {
    kind: "array",
  });
  equal(await zarr.get(field, [3, 0, 1]), 3 * 256 * 256 + 1);
  // Its dimensions have no variables: netCDF's stand-in datasets are hidden, their names kept.
  deepStrictEqual(field.attrs._ARRAY_DIMENSIONS, ["time", "y", "x"]);
  equal(await store.get("/x/.zarray"), undefined);
  const metadataRequests = emu.counters.storeGets - 1;
  const metadataBytes = emu.counters.storeBytes - chunkLength;
  ok(metadataRequests <= 6, `${metadataRequests} metadata requests`);
  // The first read (the whole metadata of this file), then pages.
  ok(
    metadataBytes <= FIRST_READ_BYTES + (metadataRequests - 1) * 3 * PAGE_SIZE,
    `${metadataBytes} bytes of metadata in ${metadataRequests} requests`,
  );
  equal(metadataRequests, 1);
  ok(emu.counters.storeBytes < files["big_chunks.nc"].length / 2);
});

Deno.test("kerchunk references name the access URL and read the same values through zarrita's ReferenceStore", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const references = await hdf5References(fs, "netcdf4.nc");
  equal(references.version, 1);
  const url = `${emu.host}/api/access/datafile/${emu.fileId("netcdf4.nc")}`;
  for (const ref of Object.values(references.refs)) {
    if (Array.isArray(ref)) equal(ref[0], url);
  }
  const group = await zarr.open(ReferenceStore.fromSpec(references as never), {
    kind: "group",
  });
  for (const [path, expected] of numeric("netcdf4.nc")) {
    const arr = await zarr.open(group.resolve(path), { kind: "array" });
    deepStrictEqual(
      arr.attrs._ARRAY_DIMENSIONS,
      expected.dimensions,
      `${path}: dims`,
    );
    assertValues(`refs ${path}`, await readAll(arr), expected);
  }

  const byPath = await hdf5References(fs, "h5py.h5", { paths: true });
  deepStrictEqual(byPath.refs["counts/0"], [
    "h5py.h5",
    ...(byPath.refs["counts/0"] as unknown[]).slice(1),
  ]);
  // Variable-length strings are in the global heap, out of reach of a reference.
  deepStrictEqual(
    byPath.problems?.map((p) => p.path).sort(),
    [...UNMAPPABLE["h5py.h5"], "names"],
  );
});

Deno.test("an HDF5 file whose chunk B-tree points outside the file is a named error, read no further", async () => {
  const files = await fixtures();
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const view = await readZarrView(fs, "many_chunks.h5");
  const { layout } = view.arrays.get("grid")!.dataset;
  const root = layout.kind === "chunked" ? layout.address : -1;
  const size = files["many_chunks.h5"].length;
  // The first child pointer of the root node: after its 24-byte header and first 32-byte key.
  const damaged = files["many_chunks.h5"].slice();
  new DataView(damaged.buffer).setBigUint64(
    root + 24 + 32,
    BigInt(size + 4096),
    true,
  );
  emu.replaceContent("many_chunks.h5", damaged);
  fs.refresh();

  emu.resetCounters();
  const grid = await zarr.open(
    zarr.root(hdf5Store(fs, "many_chunks.h5")).resolve("grid"),
    {
      kind: "array",
    },
  );
  await rejects(
    zarr.get(grid, [0, null]),
    (error: Error) =>
      error instanceof Hdf5FormatError &&
      /outside the file/.test(error.message),
  );
  await rejects(getArray(fs, "many_chunks.h5", "grid"), Hdf5FormatError);
  // The walk stops at the bad pointer: no level below the root is read
  // (the store and getArray each read the first bytes and the root node).
  ok(
    emu.counters.storeBytes <= 2 * (FIRST_READ_BYTES + 3 * PAGE_SIZE),
    `${emu.counters.storeBytes} bytes read`,
  );
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await rejects(
    getArray(pool, "many_chunks.h5", "grid"),
    (error: Error) =>
      error instanceof Hdf5FormatError &&
      /outside the file/.test(error.message),
  );

  await using plain = await startEmulator({
    files: { "notes.nc": "not HDF5 at all" },
  });
  const other = new RepoFs({ host: plain.host, pid: plain.pid });
  await rejects(
    zarr.open(hdf5Store(other, "notes.nc"), { kind: "group" }),
    (error: Error) =>
      error instanceof Hdf5FormatError &&
      /no HDF5 signature/.test(error.message),
  );
});

Deno.test("a fletcher32 chunk is checked and its checksum stripped; a damaged one is a named error", async () => {
  const files = await fixtures();
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { refs } = await hdf5References(fs, "h5py.h5", { paths: true });
  const [, offset, length] = refs["checked/1"] as [string, number, number];
  equal(length, 16 * 2, "the reference leaves the checksum out");

  const damaged = files["h5py.h5"].slice();
  damaged[offset] ^= 0xff;
  emu.replaceContent("h5py.h5", damaged);
  fs.refresh();
  const checked = await zarr.open(
    zarr.root(hdf5Store(fs, "h5py.h5")).resolve("checked"),
    {
      kind: "array",
    },
  );
  deepStrictEqual(
    numbersOf((await zarr.get(checked, [zarr.slice(0, 16)])).data).slice(0, 3),
    [0, 1, 2],
  );
  await rejects(
    zarr.get(checked, [zarr.slice(16, 32)]),
    (error: Error) =>
      error instanceof Hdf5FormatError &&
      /chunk 1 of "checked" fails its Fletcher-32/.test(error.message),
  );
});

Deno.test("damaged metadata gives values or a named error, never another failure", async () => {
  const files = await fixtures();
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  let seed = 7;
  const random = (below: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * below);
  };
  const outcomes = new Set<string>();
  for (let trial = 0; trial < 40; trial++) {
    const name = trial % 2 ? "netcdf4.nc" : "latest.h5";
    const damaged = files[name].slice();
    for (let i = 0; i < 4; i++) damaged[random(8192)] = random(256);
    emu.replaceContent(name, damaged);
    fs.refresh();
    try {
      const group = await zarr.open(hdf5Store(fs, name), { kind: "group" });
      for (const path of ["temperature", "fixed", "extensible", "wide/v0"]) {
        const arr = await zarr.open(group.resolve(path), { kind: "array" })
          .catch((error) => {
            if (error instanceof zarr.NotFoundError) return undefined;
            throw error;
          });
        if (arr && arr.shape.reduce((a, b) => a * b, 1) < 1e6) {
          await zarr.get(arr, [0]);
        }
      }
      outcomes.add("read");
    } catch (error) {
      const named = error instanceof Hdf5FormatError ||
        error instanceof Hdf5UnsupportedError ||
        error instanceof zarr.CodecPipelineError;
      ok(named, `trial ${trial} of ${name}: ${(error as Error).stack}`);
      outcomes.add((error as Error).name);
    }
  }
  ok(outcomes.has("Hdf5FormatError"), [...outcomes].join());
});

Deno.test("a contiguous dataset reads as chunks of about 1 MiB, the last one short; kerchunk writes it as one chunk", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const expected = EXPECTED["contiguous.h5"].rows;
  const rows = await zarr.open(
    zarr.root(hdf5Store(fs, "contiguous.h5")).resolve("rows"),
    {
      kind: "array",
    },
  );
  deepStrictEqual(rows.chunks, [1024, 256]);
  assertValues("rows", await zarr.get(rows), expected);

  emu.resetCounters();
  const last = await zarr.get(rows, [1099, zarr.slice(254, 256)]);
  deepStrictEqual(numbersOf(last.data), [1100 * 256 - 2, 1100 * 256 - 1]);
  equal(
    emu.counters.storeBytes,
    76 * 256 * 4,
    "the short chunk's bytes, and no more",
  );

  await using pool = new RepoFsPool(fs, { workers: 2 });
  assertValues(
    "rows (pool)",
    await getArray(pool, "contiguous.h5", "rows"),
    expected,
  );

  const { refs } = await hdf5References(fs, "contiguous.h5", { paths: true });
  deepStrictEqual(JSON.parse(refs["rows/.zarray"] as string).chunks, [
    1100,
    256,
  ]);
  deepStrictEqual((refs["rows/0.0"] as unknown[]).slice(2), [1100 * 256 * 4]);
  equal(refs["rows/1.0"], undefined);
});

Deno.test("repo-fs refs prints the kerchunk JSON or writes it whole to --out, naming what it left out", async () => {
  await using emu = await startEmulator({
    files: { ...await fixtures(), "notes.txt": "not HDF5" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const printed = await runCli([...target, "refs", "netcdf4.nc"]);
  equal(printed.code, 0, printed.stderr);
  deepStrictEqual(
    JSON.parse(printed.stdout),
    await hdf5References(fs, "netcdf4.nc"),
  );

  const dir = await Deno.makeTempDir();
  try {
    const out = `${dir}/h5py.json`;
    const written = await runCli([
      ...target,
      "refs",
      "h5py.h5",
      "--paths",
      "--out",
      out,
    ]);
    equal(written.code, 0, written.stderr);
    const refs = JSON.parse(await Deno.readTextFile(out));
    deepStrictEqual(refs, await hdf5References(fs, "h5py.h5", { paths: true }));
    deepStrictEqual(await Array.fromAsync(Deno.readDir(dir), (e) => e.name), [
      "h5py.json",
    ]);
    ok(
      /left out names: variable-length strings/.test(written.stderr),
      written.stderr,
    );

    const refused = await runCli([
      ...target,
      "refs",
      "notes.txt",
      "--out",
      `${dir}/no.json`,
    ]);
    equal(refused.code, 1);
    ok(
      /Not a readable (HDF5|NetCDF) file "notes.txt"/.test(refused.stderr),
      refused.stderr,
    );
    deepStrictEqual(await Array.fromAsync(Deno.readDir(dir), (e) => e.name), [
      "h5py.json",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("chunks fetched in one merged request are each served in memory of their own", async () => {
  await using emu = await startEmulator({ files: await fixtures() });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const store = hdf5Store(fs, "big_chunks.nc");
  await store.get("/field/.zarray");
  emu.resetCounters();
  // big_chunks.nc: float32 `field` of 6 × 256 × 256, one chunk a step (unfiltered, adjacent), valued by index.
  const steps = [2, 3, 4];
  const chunks = await Promise.all(
    steps.map((step) => store.get(`/field/${step}.0.0`)),
  );
  equal(emu.counters.storeGets, 1);
  chunks.forEach((chunk, i) => {
    const values = new Float32Array(chunk!.buffer);
    deepStrictEqual(
      [values[0], values[65_535]],
      [steps[i] * 65_536, steps[i] * 65_536 + 65_535],
    );
    equal(chunk!.byteLength, chunk!.buffer.byteLength);
  });
});

import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import * as zarr from "zarrita";
import { bounded } from "./support.ts";
import { RepoFs, RepoFsPool, RepoHttpError } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  type ArrayResult,
  type ArraySelection,
  getArray,
  zarrStore,
} from "../zarr.ts";
import { ArrayPartReader, padSelection } from "../src/zarr/array_part.ts";
import { partCount, splitSelection } from "../src/zarr/get_array.ts";
import type { ByteSource } from "../src/formats/source.ts";
import {
  type ArraySpec,
  buildZarrStore,
  ramp,
} from "../fixtures/zarr_writer.ts";

/** Sets a box of `values` (C order, shape `shape`) to `value`. */
function blank<T extends ArraySpec["data"]>(
  values: T,
  shape: number[],
  box: [number, number][],
  value: number,
): T {
  const stride = shape.map((_, a) =>
    shape.slice(a + 1).reduce((x, y) => x * y, 1)
  );
  for (let i = 0; i < values.length; i++) {
    const at = stride.map((s, a) => Math.floor(i / s) % shape[a]);
    if (at.every((x, a) => x >= box[a][0] && x < box[a][1])) values[i] = value;
  }
  return values;
}

const V2: ArraySpec[] = [
  {
    path: "temperature",
    data: blank(ramp(Float32Array, 10 * 6 * 5, 0.25, -40), [10, 6, 5], [
      [8, 10],
      [0, 6],
      [0, 5],
    ], NaN),
    shape: [10, 6, 5],
    chunks: [4, 4, 3],
    fillValue: NaN,
    compressor: "gzip",
    dimensions: ["time", "lat", "lon"],
    attrs: { units: "degC" },
  },
  {
    path: "pressure",
    data: ramp(Float64Array, 7 * 9, 1.5, 1000),
    shape: [7, 9],
    chunks: [3, 4],
    compressor: "zlib",
    order: "F",
  },
  {
    path: "surface/elevation",
    data: blank(ramp(Int16Array, 11 * 13, 7, -300), [11, 13], [[5, 10], [
      0,
      5,
    ]], -9999),
    shape: [11, 13],
    chunks: [5, 5],
    fillValue: -9999,
  },
  {
    path: "humidity",
    data: ramp(Uint8Array, 5 * 4 * 6, 3),
    shape: [5, 4, 6],
    chunks: [2, 3, 4],
    compressor: "gzip",
    dimensionSeparator: "/",
  },
];

const V3: ArraySpec[] = [
  {
    path: "wind",
    data: ramp(Float32Array, 9 * 7, -0.5, 12),
    shape: [9, 7],
    chunks: [4, 3],
    dimensions: ["y", "x"],
  },
  {
    path: "levels/count",
    data: ramp(Int16Array, 6 * 5, 11, -100),
    shape: [6, 5],
    chunks: [4, 4],
    fillValue: -1,
  },
  {
    path: "sharded",
    data: blank(ramp(Float64Array, 13 * 10, 0.125), [13, 10], [[0, 4], [
      0,
      10,
    ]], 0),
    shape: [13, 10],
    chunks: [2, 3],
    shard: [2, 2],
    compressor: "gzip",
  },
];

const FILES: Record<string, Uint8Array | string> = {
  ...await buildZarrStore(V2, {
    format: 2,
    consolidated: true,
    prefix: "climate.zarr",
    attrs: { title: "fixture" },
  }),
  ...await buildZarrStore(V3, { format: 3, prefix: "data/climate_v3.zarr" }),
  "flags.zarr/.zarray": JSON.stringify({
    zarr_format: 2,
    shape: [5],
    chunks: [3],
    dtype: "|b1",
    compressor: null,
    fill_value: false,
    order: "C",
    filters: null,
  }),
  "flags.zarr/0": new Uint8Array([1, 0, 1]),
  "flags.zarr/1": new Uint8Array([0, 1, 0]),
  "scalar.zarr/.zarray": JSON.stringify({
    zarr_format: 2,
    shape: [],
    chunks: [],
    dtype: "<f8",
    compressor: null,
    fill_value: 0,
    order: "C",
    filters: null,
  }),
  "scalar.zarr/0": new Uint8Array(new Float64Array([273.15]).buffer),
  "climate.zarr.md5": "not part of the store",
  "README.md": "# climate",
  "data/notes.txt": "beside the v3 store",
};

async function dataset() {
  const emu = await startEmulator({ files: FILES });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  return { emu, fs, [Symbol.asyncDispose]: () => emu.close() };
}

/** What `selection` of `spec` holds, in C order, by zarrita's rules. */
function expected(spec: ArraySpec, selection: ArraySelection) {
  const axes = spec.shape.map((size, axis) => {
    const sel = selection?.[axis] ?? null;
    if (typeof sel === "number") {
      return { drop: true, at: [sel < 0 ? sel + size : sel] };
    }
    const bound = (v: number | null | undefined, otherwise: number) =>
      v == null ? otherwise : Math.min(size, Math.max(0, v < 0 ? v + size : v));
    const at: number[] = [];
    const step = sel?.step ?? 1;
    for (let i = bound(sel?.start, 0); i < bound(sel?.stop, size); i += step) {
      at.push(i);
    }
    return { drop: false, at };
  });
  const stride = spec.shape.map((_, a) =>
    spec.shape.slice(a + 1).reduce((x, y) => x * y, 1)
  );
  let offsets = [0];
  for (const [axis, { at }] of axes.entries()) {
    offsets = offsets.flatMap((o) => at.map((i) => o + i * stride[axis]));
  }
  return {
    shape: axes.filter((a) => !a.drop).map((a) => a.at.length),
    values: offsets.map((o) => spec.data[o]),
  };
}

/** A result's values in C order, whatever its strides. */
function cOrder({ data, shape, stride }: ArrayResult): number[] {
  const values = data as ArrayLike<number>;
  let offsets = [0];
  for (const [axis, size] of shape.entries()) {
    offsets = offsets.flatMap((o) =>
      Array.from({ length: size }, (_, i) => o + i * stride[axis])
    );
  }
  return offsets.map((o) => values[o]);
}

function assertSelection(
  result: ArrayResult,
  spec: ArraySpec,
  selection: ArraySelection,
) {
  const want = expected(spec, selection);
  const label = `${spec.path} ${JSON.stringify(selection)}`;
  deepStrictEqual(result.shape, want.shape, label);
  deepStrictEqual(cOrder(result), want.values, label);
  equal(result.data.constructor, spec.data.constructor, label);
}

const SELECTIONS: ArraySelection[] = [
  null,
  [zarr.slice(1, 9)],
  [zarr.slice(null, null, 3), 2],
  [zarr.slice(0, null, 5), zarr.slice(1, -1)],
  [zarr.slice(-4, null, 2), 1],
  [3, zarr.slice(1, 3)],
  [-1],
];

Deno.test("zarr.open reads a v2 group: flat and nested keys, gzip, zlib, raw, F order, fill values", async () => {
  await using t = await dataset();
  ok("climate.zarr/temperature/0.0.0" in FILES);
  ok("climate.zarr/humidity/0/0/0" in FILES);
  ok(!("climate.zarr/temperature/2.0.0" in FILES), "all-NaN chunk not written");
  ok(
    !("climate.zarr/surface/elevation/1.0" in FILES),
    "all-fill chunk not written",
  );
  const store = zarrStore(t.fs, "climate.zarr");
  const group = await zarr.open(store, { kind: "group" });
  deepStrictEqual(group.attrs, { title: "fixture" });
  for (const spec of V2) {
    const arr = await zarr.open.v2(group.resolve(spec.path), { kind: "array" });
    deepStrictEqual([arr.shape, arr.chunks], [spec.shape, spec.chunks]);
    assertSelection(await zarr.get(arr), spec, null);
    const rows = padSelection([zarr.slice(1, 4)], spec.shape.length);
    assertSelection(await zarr.get(arr, rows), spec, rows);
  }
  const temperature = await zarr.open(group.resolve("temperature"), {
    kind: "array",
  });
  deepStrictEqual(temperature.dimensionNames, ["time", "lat", "lon"]);
  equal(temperature.attrs.units, "degC");
  ok(Number.isNaN(temperature.fillValue));
});

Deno.test("consolidated metadata opens every array with no further metadata request", async () => {
  await using t = await dataset();
  const store = await zarr.withConsolidatedMetadata(
    zarrStore(t.fs, "/climate.zarr/"),
    { format: "v2" },
  );
  equal(t.emu.counters.storeGets, 1, ".zmetadata");
  deepStrictEqual(
    store.contents().filter((c) => c.kind === "array").map((c) => c.path)
      .sort(),
    ["/humidity", "/pressure", "/surface/elevation", "/temperature"],
  );
  t.emu.resetCounters();
  const root = zarr.root(store);
  for (const spec of V2) {
    const arr = await zarr.open.v2(root.resolve(spec.path), { kind: "array" });
    deepStrictEqual(arr.shape, spec.shape);
  }
  equal(t.emu.counters.storeGets, 0);
  const pressure = await zarr.open.v2(root.resolve("pressure"), {
    kind: "array",
  });
  assertSelection(await zarr.get(pressure, [2, null]), V2[1], [2, null]);
  equal(t.emu.counters.storeGets, 3, "one chunk row of three chunks");

  const plain = await zarr.withMaybeConsolidatedMetadata(
    zarrStore(t.fs, "data/climate_v3.zarr"),
    { format: "v2" },
  );
  ok(!("contents" in plain), "no .zmetadata: the store itself");
  equal(t.emu.counters.storeGets, 3, "a missing .zmetadata costs nothing");
});

Deno.test("zarr.open reads v3 written by zarrita and sharded v3 with gzip inner chunks", async () => {
  await using t = await dataset();
  ok("data/climate_v3.zarr/wind/c/0/0" in FILES);
  ok(!("data/climate_v3.zarr/sharded/c/0/0" in FILES), "empty shard left out");
  const store = zarrStore(t.fs, "data/climate_v3.zarr");
  const group = await zarr.open(store, { kind: "group" });
  for (const spec of V3) {
    const arr = await zarr.open(group.resolve(spec.path), { kind: "array" });
    deepStrictEqual([arr.shape, arr.chunks], [spec.shape, spec.chunks]);
    for (const selection of SELECTIONS) {
      const full = padSelection(selection, spec.shape.length);
      assertSelection(await zarr.get(arr, full), spec, selection);
    }
  }
  const wind = await zarr.open.v3(group.resolve("wind"), { kind: "array" });
  deepStrictEqual(wind.dimensionNames, ["y", "x"]);

  const sharded = await zarr.open.v3(group.resolve("sharded"), {
    kind: "array",
  });
  t.emu.resetCounters();
  equal(await zarr.get(sharded, [5, 4]), V3[2].data[5 * 10 + 4]);
  equal(t.emu.counters.storeGets, 2, "the shard's index, then one chunk");
});

Deno.test("a missing key or a directory is undefined, without a request", async () => {
  await using t = await dataset();
  const store = zarrStore(t.fs, "climate.zarr");
  for (
    const key of [
      "/nothing/.zarray",
      "/temperature/2.0.0",
      "/temperature",
      "/surface",
      "/.zmetadata/deeper",
    ] as const
  ) {
    equal(await store.get(key), undefined, key);
    equal(await store.getRange(key, { offset: 0, length: 4 }), undefined, key);
    equal(await store.getRange(key, { suffixLength: 4 }), undefined, key);
  }
  equal(await zarrStore(t.fs, "nowhere.zarr").get("/.zgroup"), undefined);
  equal(t.emu.counters.storeGets, 0);
  equal(t.emu.counters.accessGets, 0);
  equal(t.emu.counters.heads, 0);
  equal(t.emu.counters.listingCalls, 1);
});

Deno.test("over a source without exists, a key whose info is a NotFoundError is missing; another failure of info rejects", async () => {
  await using t = await dataset();
  const fault: { error?: Error } = {};
  const source: ByteSource = {
    info: (path) => fault.error ? Promise.reject(fault.error) : t.fs.info(path),
    catFile: (path, options) => t.fs.catFile(path, options),
  };
  const store = zarrStore(source, "climate.zarr");
  equal(await store.get("/nothing/.zarray"), undefined);
  equal(await store.get("/temperature"), undefined, "a directory");
  const zgroup = JSON.parse(
    new TextDecoder().decode(await store.get("/.zgroup")),
  );
  equal(zgroup.zarr_format, 2);
  fault.error = new RepoHttpError(503, "https://repo.invalid/api");
  await rejects(store.get("/nothing/.zarray"), fault.error);
});

Deno.test("getRange reads byte-exact ranges", async () => {
  await using t = await dataset();
  const store = zarrStore(t.fs, "climate.zarr");
  const bytes = FILES["climate.zarr/pressure/0.0"] as Uint8Array;
  ok(bytes.length > 40);
  const key = "/pressure/0.0";
  deepStrictEqual(await store.get(key), bytes);
  deepStrictEqual(
    await store.getRange(key, { offset: 7, length: 20 }),
    bytes.slice(7, 27),
  );
  deepStrictEqual(
    await store.getRange(key, { offset: 0, length: bytes.length }),
    bytes,
  );
  deepStrictEqual(
    await store.getRange(key, { offset: bytes.length - 3, length: 100 }),
    bytes.slice(-3),
    "a range past the end is cut at the end",
  );
  deepStrictEqual(
    await store.getRange(key, { suffixLength: 9 }),
    bytes.slice(-9),
  );
  deepStrictEqual(
    await store.getRange(key, { suffixLength: bytes.length }),
    bytes,
  );
  t.emu.resetCounters();
  deepStrictEqual(
    await store.getRange(key, { offset: 5, length: 0 }),
    new Uint8Array(0),
  );
  deepStrictEqual(
    await store.getRange(key, { suffixLength: 0 }),
    new Uint8Array(0),
  );
  equal(t.emu.counters.storeGets, 0, "empty ranges need no request");
  await rejects(
    store.getRange(key, { offset: 4.7e18, length: 2 }),
    (e: unknown) =>
      e instanceof RangeError &&
      e.message.includes('"climate.zarr/pressure/0.0"') &&
      e.message.includes("offset 4700000000000000000"),
  );
  await rejects(store.getRange(key, { suffixLength: 1.5 }), RangeError);
});

Deno.test("a failing read rejects, through the store and through zarr.get", async () => {
  await using t = await dataset();
  // The default backoff would wait seconds before each 500 gives up.
  const fs = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const store = zarrStore(fs, "climate.zarr");
  const arr = await zarr.open.v2(zarr.root(store).resolve("humidity"), {
    kind: "array",
  });
  t.emu.faults.rules.push({ route: "content", status: 500, times: 100 });
  const is500 = (e: unknown) => e instanceof RepoHttpError && e.status === 500;
  await rejects(store.get("/humidity/0/0/0"), is500);
  await rejects(store.getRange("/humidity/0/0/0", { suffixLength: 2 }), is500);
  await rejects(zarr.get(arr, [0, 0, 0]), is500);
  await rejects(getArray(fs, "climate.zarr", "humidity", [1, 2, 3]), is500);
});

Deno.test("getArray on a RepoFs reads v2 and v3 like zarr.get; a point has shape []", async () => {
  await using t = await dataset();
  for (
    const [root, specs] of [["climate.zarr", V2], [
      "data/climate_v3.zarr",
      V3,
    ]] as const
  ) {
    for (const spec of specs) {
      for (const selection of SELECTIONS) {
        const got = await getArray(t.fs, root, spec.path, selection);
        assertSelection(got, spec, selection);
      }
    }
  }
  const point = await getArray(t.fs, "climate.zarr", "temperature", [1, -2, 3]);
  deepStrictEqual(point, {
    data: new Float32Array([expected(V2[0], [1, -2, 3]).values[0]]),
    shape: [],
    stride: [],
  });
  const part = await new ArrayPartReader(t.fs).read({
    root: "data/climate_v3.zarr",
    arrayPath: "/levels/count",
    selection: [zarr.slice(1, 5), 2],
  });
  assertSelection(part, V3[1], [zarr.slice(1, 5), 2]);
  await rejects(
    getArray(t.fs, "climate.zarr", "temperature", [10]),
    zarr.InvalidSelectionError,
  );
  await rejects(getArray(t.fs, "climate.zarr", "nothing"), zarr.NotFoundError);
});

Deno.test("getArray on a pool decodes parts in the workers and joins them value for value", async () => {
  await using t = await dataset();
  await using pool = new RepoFsPool(t.fs, { workers: 3 });
  for (
    const [root, specs] of [["climate.zarr", V2], [
      "data/climate_v3.zarr",
      V3,
    ]] as const
  ) {
    for (const spec of specs) {
      for (const selection of SELECTIONS) {
        const got = await getArray(pool, root, spec.path, selection);
        assertSelection(got, spec, selection);
        const alone = await getArray(t.fs, root, spec.path, selection);
        deepStrictEqual(cOrder(got), cOrder(alone));
      }
    }
  }
  deepStrictEqual(
    await getArray(pool, "climate.zarr", "temperature", [1, -2, 3]),
    await getArray(t.fs, "climate.zarr", "temperature", [1, -2, 3]),
  );
  const scalar = { data: new Float64Array([273.15]), shape: [], stride: [] };
  deepStrictEqual(await getArray(pool, "scalar.zarr", ""), scalar);
  deepStrictEqual(await getArray(t.fs, "scalar.zarr", "", []), scalar);
  // As zarr.get judges it: an index too many, from a worker as from here.
  for (const source of [t.fs, pool]) {
    await rejects(getArray(source, "scalar.zarr", "", [0]), (e: Error) => {
      ok(e instanceof zarr.InvalidSelectionError, String(e));
      ok(zarr.isZarritaError(e, "InvalidSelectionError"));
      match(e.message, /too many ind/);
      return true;
    });
  }
  await rejects(
    getArray(pool, "climate.zarr", "temperature", [0, 99]),
    (e: Error) => zarr.isZarritaError(e, "InvalidSelectionError"),
    "out of bounds on the second axis, found in a worker",
  );
  const flags = await getArray(pool, "flags.zarr", "");
  ok(flags.data instanceof zarr.BoolArray, "booleans decoded on this thread");
  deepStrictEqual([...flags.data], [true, false, true, false, true]);
  t.emu.faults.rules.push({ route: "content", status: 500, times: 100 });
  await rejects(
    getArray(pool, "data/climate_v3.zarr", "wind"),
    (e: unknown) => e instanceof RepoHttpError && e.status === 500,
  );
  t.emu.faults.rules.length = 0;
  assertSelection(
    await getArray(pool, "data/climate_v3.zarr", "wind"),
    V3[0],
    null,
  );
});

Deno.test("getArray on a pool joins F-order parts in C order", async () => {
  const spec: ArraySpec = {
    path: "",
    data: ramp(Float64Array, 256 * 3, 1.5, 1000),
    shape: [256, 3],
    chunks: [1, 3],
    compressor: "zlib",
    order: "F",
  };
  await using emu = await startEmulator({
    files: await buildZarrStore([spec], { format: 2, prefix: "f.zarr" }),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  equal(partCount(null, { ...spec, dtype: "float64" }, 2 * 4), 4);
  const joined = await getArray(pool, "f.zarr", "");
  deepStrictEqual(joined.stride, [3, 1], "F-order parts joined in C order");
  assertSelection(joined, spec, null);
});

Deno.test("splitSelection cuts the first axis at chunk boundaries", () => {
  const s = (start: number | null, stop: number | null, step = 1) => ({
    start,
    stop,
    step,
  });
  deepStrictEqual(splitSelection(null, [10, 3], [4, 3], 3), [
    [s(0, 4)],
    [s(4, 8)],
    [s(8, 10)],
  ]);
  deepStrictEqual(splitSelection([zarr.slice(1, 9), 2], [10, 3], [4, 3], 2), [
    [s(1, 4), 2],
    [s(4, 9), 2],
  ]);
  deepStrictEqual(
    splitSelection([zarr.slice(null, null, 3)], [10], [4], 4),
    [[s(0, 4, 3)], [s(6, 7, 3)], [s(9, 10, 3)]],
    "items 0, 3 | 6 | 9: item 3 shares chunk 0 with item 0",
  );
  deepStrictEqual(
    splitSelection([zarr.slice(-5, null)], [100], [10], 8),
    [[zarr.slice(-5, null)]],
    "one chunk: unchanged",
  );
  deepStrictEqual(splitSelection(null, [100], [10], 4).map((p) => p![0]), [
    s(0, 20),
    s(20, 50),
    s(50, 70),
    s(70, 100),
  ]);
  for (
    const selection of [[3, null], [zarr.slice(2, 2)], [
      zarr.slice(null, null, -1),
    ]]
  ) {
    deepStrictEqual(splitSelection(selection, [10, 3], [2, 3], 4), [selection]);
  }
  deepStrictEqual(splitSelection([], [], [], 4), [[]]);
});

/**
 * 512 rows of 3 float64 in 512 gzip chunks, in `series.zarr/values`: a
 * pool of 2 cuts it into 8 parts of `MIN_PART_CHUNKS` (64) chunks.
 */
const SERIES: ArraySpec = {
  path: "values",
  data: ramp(Float64Array, 512 * 3, 0.5, -7),
  shape: [512, 3],
  chunks: [1, 3],
  compressor: "gzip",
};

Deno.test("getArray on a pool of 2 reads 8 parts and joins them; a corrupt chunk rejects and no further part starts", async () => {
  const files = await buildZarrStore([SERIES], {
    format: 2,
    prefix: "series.zarr",
  });
  const parts = partCount(
    null,
    { ...SERIES, dtype: "float64" },
    2 * 4,
  );
  equal(parts, 8, "four parts per worker, of 64 chunks each");
  await using emu = await startEmulator({
    files: {
      ...files,
      ...Object.fromEntries(
        Object.entries(files).map((
          [path, bytes],
        ) => [path.replace("series.zarr", "broken.zarr"), bytes]),
      ),
      // The first chunk of each of the 4 parts read first (2 workers x 2).
      ...Object.fromEntries(
        [0, 64, 128, 192].map((row) => [
          `broken.zarr/values/${row}.0`,
          new Uint8Array([31, 139, 8, 0, 1, 2, 3]),
        ]),
      ),
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  assertSelection(await getArray(pool, "series.zarr", "values"), SERIES, null);
  assertSelection(
    await getArray(pool, "series.zarr", "values", [zarr.slice(3, 77, 2), 1]),
    SERIES,
    [zarr.slice(3, 77, 2), 1],
  );

  emu.resetCounters();
  const watched = watchParts(pool);
  await rejects(getArray(watched.pool, "broken.zarr", "values"), (e: Error) => {
    ok(zarr.isZarritaError(e, "CodecPipelineError"), String(e));
    match(e.message, /decode chunk via codec "numcodecs\.gzip \(node:zlib\)"/);
    match(String((e.cause as Error)?.message), /end of file|header check/);
    return true;
  });
  const { started, startedAfterFailure } = watched.parts;
  equal(startedAfterFailure, 0, "parts kept starting after the failure");
  ok(
    started <= pool.size * 2,
    `${started} parts started: more than the first ones read at once, which all fail`,
  );
  // Each started part reads its 64 chunks at most; the metadata is read once
  // by this thread (through the pool) and once by each worker.
  const bound = 64 * started + 1 + pool.size;
  ok(
    emu.counters.storeGets <= bound,
    `${emu.counters.storeGets} store GETs for ${started} parts (at most ${bound})`,
  );
});

Deno.test("getArray hands a source's own decoders the parts of a read, and decodes on the calling thread without them", async () => {
  await using emu = await startEmulator({
    files: await buildZarrStore([SERIES], { format: 2, prefix: "series.zarr" }),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const asked: unknown[] = [];
  const bytes = {
    catFile: (path: string, options?: { start?: number; end?: number }) =>
      fs.catFile(path, options),
    info: (path: string) => fs.info(path),
    exists: (path: string) => fs.exists(path),
  };
  const withDecoders: ByteSource = {
    ...bytes,
    decoders: {
      ...pool.decoders,
      readArrayParts: (requests, options) => (
        asked.push(...requests), pool.decoders.readArrayParts(requests, options)
      ),
    },
  };
  deepStrictEqual(
    (await getArray(withDecoders, "series.zarr", "values")).data,
    SERIES.data,
  );
  equal(asked.length, 8, "four parts per worker");
  deepStrictEqual(
    (await getArray(bytes, "series.zarr", "values")).data,
    SERIES.data,
  );
  equal(asked.length, 8, "a source without decoders decodes here");
});

/**
 * `pool` as getArray sees it, counting the parts it is asked to read
 * while the read is still on (its signal not aborted), and those of them
 * asked for after a part had failed.
 */
function watchParts(pool: RepoFsPool): {
  pool: ByteSource;
  parts: { started: number; startedAfterFailure: number };
} {
  const parts = { started: 0, startedAfterFailure: 0 };
  let failed = false;
  const watched: ByteSource = {
    catFile: (path, options) => pool.catFile(path, options),
    info: (path) => pool.info(path),
    exists: (path) => pool.exists(path),
    decoders: {
      ...pool.decoders,
      readArrayParts(requests, options) {
        if (!options?.signal?.aborted) {
          parts.started += requests.length;
          if (failed) parts.startedAfterFailure += requests.length;
        }
        const read = pool.decoders.readArrayParts(requests, options);
        read.catch(() => failed = true);
        return read;
      },
    },
  };
  return { parts, pool: watched };
}

Deno.test("getArray stops when its signal aborts, on a RepoFs and on a pool", async () => {
  await using emu = await startEmulator({
    files: await buildZarrStore([SERIES], { format: 2, prefix: "series.zarr" }),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));
  for (const [name, source] of [["RepoFs", fs], ["pool", pool]] as const) {
    await getArray(source, "series.zarr", "values", [0]); // metadata URLs
    emu.faults.latencyMs = 30;
    emu.resetCounters();
    const read = getArray(source, "series.zarr", "values", null, {
      signal: AbortSignal.timeout(100),
    });
    await rejects(read, (e: Error) => e.name === "TimeoutError");
    await pause(50); // a HEAD sent just before the abort reaches the emulator
    const sent = emu.counters.heads;
    ok(sent < 40, `${name}: ${sent} HEADs, the read went on`);
    await pause(300);
    equal(emu.counters.heads, sent, `${name}: a HEAD after the abort`);
    emu.faults.latencyMs = 0;
  }
});

Deno.test("getArray of one part on a pool rejects when its signal aborts while it is pending, even if the worker had finished", async () => {
  await using emu = await startEmulator({
    files: await buildZarrStore(
      [{ path: "t", data: ramp(Float32Array, 40), shape: [40], chunks: [40] }],
      { format: 2, prefix: "d.zarr" },
    ),
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  await getArray(pool, "d.zarr", "t"); // the worker up, the URL known
  for (let round = 0; round < 8; round++) {
    const stop = new AbortController();
    const gets = emu.counters.storeGets;
    let settled = false;
    const read = getArray(pool, "d.zarr", "t", null, { signal: stop.signal });
    read.then(() => settled = true, () => settled = true);
    while (emu.counters.storeGets === gets && !settled) {
      await new Promise((ok) => setTimeout(ok, 0));
    }
    // The chunk is served (once its answer has left): hold this thread while
    // the worker decodes it and answers, so that the answer waits here
    // behind the abort.
    await new Promise((ok) => setTimeout(ok, 1));
    const until = performance.now() + 100;
    while (performance.now() < until) { /* busy */ }
    if (settled) continue;
    const reason = new Error(`abort ${round}`);
    stop.abort(reason);
    await rejects(read, (e) => e === reason, `round ${round}`);
  }
});

Deno.test("a zarr store over a pool passes its signal on to the worker's read", async () => {
  await using emu = await startEmulator({
    files: { "s.zarr/.zgroup": '{"zarr_format":2}' },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const store = zarrStore(pool, "s.zarr");
  equal(
    new TextDecoder().decode(await store.get("/.zgroup")),
    '{"zarr_format":2}',
  );
  const fresh = new RepoFs({ host: emu.host, pid: emu.pid, version: ":draft" });
  await using stalled = new RepoFsPool(fresh, { workers: 1 });
  await fresh.info("");
  emu.faults.rules.push({ route: "head", delayMs: 3_600_000, times: Infinity });
  const controller = new AbortController();
  const read = zarrStore(stalled, "s.zarr").get("/.zgroup", {
    signal: controller.signal,
  });
  const heads = async (open: boolean) => {
    for (
      let i = 0;
      i < 2000 && (emu.counters.concurrentHeads > 0) !== open;
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    equal(emu.counters.concurrentHeads > 0, open, `HEAD open: ${open}`);
  };
  await heads(true);
  controller.abort(new Error("not wanted any more"));
  await rejects(bounded(read, "the aborted read"), /not wanted any more/);
  await heads(false);
  equal(emu.counters.storeGets, 1, "only the first read reached the store");
});

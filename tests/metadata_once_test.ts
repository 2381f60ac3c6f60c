import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoChangedError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import { readParquet } from "../parquet.ts";
import { zipTree } from "../zip.ts";
import zlib from "node:zlib";
import { zipArchive } from "./zip_archive.ts";
import { MetadataLru } from "../src/content/file_metadata.ts";
import { seedBytesSent } from "../src/pool/pool.ts";
import { FOOTER_GUESS } from "../src/formats/parquet/footer.ts";

const HDF5 = new URL("../fixtures/hdf5/", import.meta.url);
const BIG = await Deno.readFile(new URL("big_chunks.nc", HDF5));
/** big_chunks.nc: float32 `field` of 6 × 256 × 256, one chunk per step, valued by index. */
const STEP = 256 * 256;

function step(t: number): Float32Array {
  return Float32Array.from({ length: STEP }, (_, i) => t * STEP + i);
}

Deno.test("a second getArray of another step on the same RepoFs is one store GET", async () => {
  await using emu = await startEmulator({ files: { "x.nc": BIG } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual((await getArray(fs, "x.nc", "field", [0])).data, step(0));
  emu.resetCounters();
  deepStrictEqual((await getArray(fs, "x.nc", "field", [4])).data, step(4));
  equal(emu.counters.storeGets, 1);
});

Deno.test("a cold pool of 2 makes the store GETs of one RepoFs for one NetCDF4 step", async () => {
  await using emu = await startEmulator({ files: { "x.nc": BIG } });
  const alone = new RepoFs({ host: emu.host, pid: emu.pid });
  await alone.info("x.nc");
  emu.resetCounters();
  deepStrictEqual((await getArray(alone, "x.nc", "field", [3])).data, step(3));
  const oneThread = emu.counters.storeGets;

  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("x.nc");
  await using pool = new RepoFsPool(fs, { workers: 2 });
  emu.resetCounters();
  const rows = [zarr.slice(1, 5)];
  const { data } = await getArray(pool, "x.nc", "field", rows);
  deepStrictEqual(
    data,
    Float32Array.from({ length: 4 * STEP }, (_, i) => STEP + i),
  );
  emu.resetCounters();
  await using cold = new RepoFsPool(
    new RepoFs({ host: emu.host, pid: emu.pid }),
    {
      workers: 2,
    },
  );
  await cold.info("x.nc");
  emu.resetCounters();
  deepStrictEqual((await getArray(cold, "x.nc", "field", [3])).data, step(3));
  equal(emu.counters.storeGets, oneThread);
});

Deno.test("a file changed after its metadata was kept is a RepoChangedError, then read afresh", async () => {
  await using emu = await startEmulator({ files: { "x.nc": BIG } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual((await getArray(fs, "x.nc", "field", [0])).data, step(0));
  const changed = BIG.slice();
  // The first value of step 2, stored uncompressed at byte 535,616.
  new DataView(changed.buffer).setFloat32(535_616, -1, true);
  emu.replaceContent("x.nc", changed);
  await rejects(getArray(fs, "x.nc", "field", [2]), RepoChangedError);
  emu.resetCounters();
  const { data } = await getArray(fs, "x.nc", "field", [2]);
  equal((data as Float32Array)[0], -1);
  equal((data as Float32Array)[1], 2 * STEP + 1);
  ok(emu.counters.storeGets > 1, "the metadata is read again");
});

Deno.test("the 10,000-chunk file reads whole in at most 2,000 store GETs, every value right", async () => {
  const bytes = await Deno.readFile(new URL("many_chunks.h5", HDF5));
  await using emu = await startEmulator({ files: { "m.h5": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("m.h5");
  emu.resetCounters();
  const { data, shape } = await getArray(fs, "m.h5", "grid");
  deepStrictEqual(shape, [10_000, 4]);
  deepStrictEqual(data, Int32Array.from({ length: 40_000 }, (_, i) => i));
  ok(emu.counters.storeGets <= 2_000, `${emu.counters.storeGets} GETs`);
});

Deno.test("a cold pool of 2 reads the 10,000-chunk file in 8 parts, each worker sent its metadata bytes once", async () => {
  const bytes = await Deno.readFile(new URL("many_chunks.h5", HDF5));
  await using emu = await startEmulator({ files: { "m.h5": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const { data } = await getArray(pool, "m.h5", "grid");
  deepStrictEqual(data, Int32Array.from({ length: 40_000 }, (_, i) => i));
  const seed = await fs.metadata.seedOf("m.h5", "netcdf");
  const seedBytes = seed!.ranges.reduce((n, r) => n + r.bytes.length, 0);
  ok(seedBytes > 0);
  equal(
    seedBytesSent(pool),
    2 * seedBytes,
    "one seed per worker, not per part",
  );
  emu.resetCounters();
  const again = await getArray(pool, "m.h5", "grid", [zarr.slice(0, 1_000)]);
  deepStrictEqual(again.data, (data as Int32Array).subarray(0, 4_000));
  equal(emu.counters.storeGets, 0, "the workers read what they were sent");
});

Deno.test("a second readParquet of the same file reads no footer again", async () => {
  const bytes = await Deno.readFile(
    new URL("../fixtures/parquet/stations.snappy.parquet", import.meta.url),
  );
  await using emu = await startEmulator({ files: { "t.parquet": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("t.parquet");
  emu.resetCounters();
  const first = await readParquet(fs, "t.parquet", { rowStart: 0, rowEnd: 10 });
  const firstBytes = emu.counters.storeBytes;
  emu.resetCounters();
  const second = await readParquet(fs, "t.parquet", {
    rowStart: 0,
    rowEnd: 10,
  });
  deepStrictEqual(second, first);
  ok(bytes.length > FOOTER_GUESS);
  ok(
    emu.counters.storeBytes <= firstBytes - FOOTER_GUESS,
    `${emu.counters.storeBytes} bytes, ${firstBytes} the first time`,
  );
});

Deno.test("a zip's central directory is read once per RepoFs, and a NetCDF4 member's metadata once per archive", async () => {
  const stored = zipArchive([{
    name: "x.nc",
    method: 0,
    data: BIG,
    size: BIG.length,
    crc32: zlib.crc32(BIG),
  }]);
  await using emu = await startEmulator({ files: { "a.zip": stored } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await zipTree(fs, "a.zip").find(""), ["x.nc"]);
  emu.resetCounters();
  deepStrictEqual(await zipTree(fs, "a.zip").find(""), ["x.nc"]);
  equal(emu.counters.storeGets, 0);

  const first = zipTree(fs, "a.zip");
  deepStrictEqual((await getArray(first, "x.nc", "field", [0])).data, step(0));
  emu.resetCounters();
  const again = zipTree(fs, "a.zip");
  deepStrictEqual((await getArray(again, "x.nc", "field", [5])).data, step(5));
  equal(emu.counters.storeGets, 1);
});

Deno.test("a pool whose worker finds the file changed after its metadata was kept: RepoChangedError, then read afresh", async () => {
  await using emu = await startEmulator({ files: { "x.nc": BIG } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  deepStrictEqual((await getArray(pool, "x.nc", "field", [0])).data, step(0));
  const changed = BIG.slice();
  new DataView(changed.buffer).setFloat32(535_616, -1, true);
  emu.replaceContent("x.nc", changed);
  await rejects(getArray(pool, "x.nc", "field", [2]), RepoChangedError);
  const { data } = await getArray(pool, "x.nc", "field", [2]);
  equal((data as Float32Array)[0], -1);
  equal((data as Float32Array)[1], 2 * STEP + 1);
});

Deno.test("kept metadata is bounded: past the limit the least recently used file's is dropped and parsed again when asked", async () => {
  const file = new Uint8Array(100);
  const kept = new MetadataLru(
    (path) =>
      Promise.resolve({
        identity: path,
        read: (start, end) => Promise.resolve(file.slice(start, end)),
      }),
    250,
  );
  const parses: string[] = [];
  const header = (path: string) =>
    kept.kept(path, "test", async (reads) => {
      parses.push(path);
      return (await reads.metadata(0, 100)).length;
    });
  for (const path of ["a", "b", "a", "c", "a", "b"]) await header(path);
  // c pushed out b (a was used more recently); b's return pushed out c.
  deepStrictEqual(parses, ["a", "b", "c", "b"]);
});

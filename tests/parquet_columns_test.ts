import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readParquet, readParquetColumns } from "../parquet.ts";

const FIXTURES = new URL("../fixtures/parquet/", import.meta.url);
const DAY_MS = 86_400_000;

/** Rows `start`..`end` of the columns fixtures/parquet/make.ts wrote. */
function written(start: number, end: number) {
  const index = Array.from({ length: end - start }, (_, i) => start + i);
  return {
    id: Int32Array.from(index),
    big: BigInt64Array.from(index, (i) => BigInt(i) * 3_000_000_019n),
    value: Float64Array.from(index, (i) => Math.sin(i) * 100),
    name: index.map((i) => `station-${i % 37}-é${i}`),
    flag: index.map((i) => i % 3 === 0),
    score: index.map((i) => i % 7 === 0 ? null : (i % 1000) / 8),
    day: index.map((i) => new Date((18_000 + i) * DAY_MS)),
    time: index.map((i) => new Date(1_700_000_000_000 + i * 60_000)),
  };
}

Deno.test("readParquetColumns: the values the writer wrote, typed arrays for numbers, on a RepoFs and a pool of 2", async () => {
  const content = await Deno.readFile(
    new URL("stations.zstd.parquet", FIXTURES),
  );
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const source of [fs, pool]) {
    const all = await readParquetColumns(source, "a.parquet");
    const want = written(0, 10_000);
    deepStrictEqual(Object.keys(all), Object.keys(want));
    for (const [name, values] of Object.entries(want)) {
      deepStrictEqual(all[name], values, name);
    }
    // Across row groups (1,500 rows each), some columns only.
    const window = await readParquetColumns(source, "a.parquet", {
      columns: ["value", "id", "score"],
      rowStart: 1_499,
      rowEnd: 4_502,
    });
    const part = written(1_499, 4_502);
    deepStrictEqual(window, {
      id: part.id,
      value: part.value,
      score: part.score,
    });
    deepStrictEqual(
      await readParquetColumns(source, "a.parquet", {
        columns: ["id", "name"],
        rowStart: 20,
        rowEnd: 20,
      }),
      { id: [], name: [] },
    );
  }
});

Deno.test("readParquetColumns: one column chunk is two GETs, the file's last 64 KiB and the chunk, and gives what readParquet gives", async () => {
  const content = await Deno.readFile(
    new URL("stations.snappy.parquet", FIXTURES),
  );
  const expected = JSON.parse(
    await Deno.readTextFile(new URL("stations.snappy.parquet.json", FIXTURES)),
  );
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("a.parquet");
  emu.resetCounters();
  const { big } = await readParquetColumns(fs, "a.parquet", {
    columns: ["big"],
    rowStart: 3_000,
    rowEnd: 4_500,
  });
  strictEqual(emu.counters.storeGets, 2);
  strictEqual(
    emu.counters.storeBytes,
    64 * 1024 + expected.rowGroups[2].chunks.big,
  );
  ok(big instanceof BigInt64Array);
  const rows = await readParquet(fs, "a.parquet", {
    columns: ["big"],
    rowStart: 3_000,
    rowEnd: 4_500,
  });
  deepStrictEqual([...big], rows.map((row) => row.big));
});

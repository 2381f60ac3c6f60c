import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  type ByteSource,
  parquetFile,
  ParquetFormatError,
  readParquet,
} from "../parquet.ts";
import type { ParquetPartRequest } from "../src/formats/parquet/parquet_parts.ts";
import { readPart } from "../src/formats/parquet/read_part.ts";

const FIXTURES = new URL("../fixtures/parquet/", import.meta.url);
const FILES = ["stations.snappy.parquet", "stations.zstd.parquet"];

/** What parquet-wasm read back from the file it wrote (fixtures/parquet/make.ts). */
interface Expected {
  rows: number;
  rowGroups: { rows: number; chunks: Record<string, number> }[];
  columns: string[];
  sums: Record<string, number | string>;
  probe: { index: number; row: Record<string, unknown> };
}

async function fixture(name: string) {
  const content = await Deno.readFile(new URL(name, FIXTURES));
  const expected: Expected = JSON.parse(
    await Deno.readTextFile(new URL(`${name}.json`, FIXTURES)),
  );
  return { content, expected };
}

function sum(values: unknown[]): number {
  return (values.filter((v) => v !== null) as number[]).reduce(
    (a, b) => a + b,
    0,
  );
}

/** The sums make.ts wrote, computed from rows as readParquet gives them. */
function sums(
  rows: Record<string, unknown>[],
): Record<string, number | string> {
  const column = (name: string) => rows.map((row) => row[name]);
  return {
    id: sum(column("id")),
    big: (column("big") as bigint[]).reduce((a, b) => a + b, 0n).toString(),
    value: sum(column("value")),
    nameChars: sum((column("name") as string[]).map((s) => s.length)),
    flag: column("flag").filter((v) => v === true).length,
    score: sum(column("score")),
    scoreNulls: column("score").filter((v) => v === null).length,
    day: sum((column("day") as Date[]).map((d) => d.getTime() / 86_400_000)),
    time: sum((column("time") as Date[]).map((d) => d.getTime())),
  };
}

/** A row with bigints and dates as make.ts wrote them in JSON. */
function plain(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === "bigint"
        ? String(value)
        : value instanceof Date
        ? value.getTime()
        : value,
    ]),
  );
}

for (const name of FILES) {
  Deno.test(`readParquet: every column of ${name} as parquet-wasm wrote it`, async () => {
    const { content, expected } = await fixture(name);
    await using emu = await startEmulator({
      files: { "t/a.parquet": content },
    });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const rows = await readParquet(fs, "t/a.parquet");
    strictEqual(rows.length, expected.rows);
    deepStrictEqual(Object.keys(rows[0]), expected.columns);
    const got = sums(rows);
    for (const [key, value] of Object.entries(expected.sums)) {
      if (key === "value") {
        ok(Math.abs(Number(got.value) - Number(value)) < 1e-6);
      } else strictEqual(got[key], value, key);
    }
    deepStrictEqual(plain(rows[expected.probe.index]), expected.probe.row);
  });
}

Deno.test("readParquet: a window of rows and columns across row groups", async () => {
  const { content, expected } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { index, row } = expected.probe;
  const window = await readParquet(fs, "a.parquet", {
    columns: ["name", "id", "score"],
    rowStart: index - 1400,
    rowEnd: index + 1,
  });
  strictEqual(window.length, 1401);
  deepStrictEqual(Object.keys(window[0]), ["id", "name", "score"]); // the file's order
  deepStrictEqual(
    window.map((r) => r.id),
    Array.from({ length: 1401 }, (_, i) => index - 1400 + i),
  );
  deepStrictEqual(window.at(-1), {
    name: row.name,
    id: row.id,
    score: row.score,
  });
  deepStrictEqual(
    await readParquet(fs, "a.parquet", { rowStart: 5, rowEnd: 5 }),
    [],
  );
  const last = await readParquet(fs, "a.parquet", {
    columns: ["id"],
    rowStart: 9_998,
    rowEnd: 20_000,
  });
  deepStrictEqual(last, [{ id: 9_998 }, { id: 9_999 }]);
  await rejects(
    readParquet(fs, "a.parquet", { columns: ["id", "nope"] }),
    (e: Error) =>
      e instanceof ParquetFormatError && e.column === "nope" &&
      /no column "nope"/.test(e.message),
  );
});

Deno.test("readParquet: one column of one row group is two GETs: the file's last 64 KiB (the footer) and its chunk", async () => {
  const { content, expected } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("a.parquet");
  const footer =
    new DataView(content.buffer).getUint32(content.byteLength - 8, true) + 8;
  const group = 3;
  const groupStart = expected.rowGroups.slice(0, group).reduce(
    (a, g) => a + g.rows,
    0,
  );
  emu.resetCounters();
  const rows = await readParquet(fs, "a.parquet", {
    columns: ["value"],
    rowStart: groupStart,
    rowEnd: groupStart + expected.rowGroups[group].rows,
  });
  strictEqual(rows.length, expected.rowGroups[group].rows);
  const fetched = emu.counters.storeBytes;
  const chunk = expected.rowGroups[group].chunks.value;
  ok(footer < 64 * 1024);
  strictEqual(emu.counters.storeGets, 2);
  strictEqual(fetched, chunk + 64 * 1024);
});

Deno.test("readParquet: every column of every row group is one GET after the footer's, neighbouring chunks fetched as one range", async () => {
  const { content, expected } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("a.parquet");
  emu.resetCounters();
  const rows = await readParquet(fs, "a.parquet");
  deepStrictEqual(sums(rows), expected.sums);
  ok(expected.rowGroups.length > 1);
  strictEqual(emu.counters.storeGets, 2);
});

Deno.test("readParquet: a pool of 2 decodes row groups in its workers and gives the same rows", async () => {
  const { content } = await fixture(FILES[1]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  strictEqual(pool.decoders.workers, 2);
  const options = {
    columns: ["id", "big", "name", "score", "time"],
    rowStart: 1_000,
    rowEnd: 8_000,
  };
  const alone = await readParquet(fs, "a.parquet", options);
  const pooled = await readParquet(pool, "a.parquet", options);
  strictEqual(pooled.length, 7_000);
  deepStrictEqual(pooled, alone);
});

Deno.test("readParquet: a source that decodes elsewhere gets one part per row group of the asked rows, with the footer", async () => {
  const { content, expected } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const parts: ParquetPartRequest[] = [];
  const source: ByteSource = {
    info: (path) => fs.info(path),
    catFile: (path, options) => fs.catFile(path, options),
    decoders: {
      workers: 2,
      readParquet: (request) => (parts.push(request), readPart(fs, request)),
      readArrayParts: () => Promise.reject(new Error("not an array")),
      readRaster: () => Promise.reject(new Error("not a raster")),
    },
  };
  const rows = await readParquet(source, "a.parquet", {
    columns: ["id"],
    rowStart: 1_000,
    rowEnd: 8_000,
  });
  deepStrictEqual(
    rows.map((r) => r.id),
    Array.from({ length: 7_000 }, (_, i) => 1_000 + i),
  );
  const starts = expected.rowGroups.map((_, g) =>
    expected.rowGroups.slice(0, g).reduce((a, x) => a + x.rows, 0)
  );
  deepStrictEqual(
    parts.map((p) => [p.rowStart, p.rowEnd]),
    [[1_000, 1_500], ...starts.slice(1, 5).map((s) => [s, s + 1_500]), [
      7_500,
      8_000,
    ]],
  );
  const footer = content.subarray(
    content.byteLength - parts[0].footer.byteLength,
  );
  deepStrictEqual(parts[0].footer, footer);
  deepStrictEqual(parts[0].columns, ["id"]);
});

Deno.test("readParquet: aborting a pool's read rejects with the signal's reason", async () => {
  const { content } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const reason = new Error("enough");
  await rejects(
    readParquet(pool, "a.parquet", { signal: AbortSignal.abort(reason) }),
    (e) => e === reason,
  );
});

Deno.test("parquetFile: hyparquet's AsyncBuffer reads slices by range and none outside the file", async () => {
  const { content } = await fixture(FILES[0]);
  await using emu = await startEmulator({ files: { "a.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const file = await parquetFile(fs, "a.parquet");
  strictEqual(file.byteLength, content.byteLength);
  deepStrictEqual(
    new Uint8Array(await file.slice(100, 110)),
    content.subarray(100, 110),
  );
  emu.resetCounters();
  await rejects(
    Promise.resolve(file.slice(content.byteLength - 4, content.byteLength + 4)),
    ParquetFormatError,
  );
  strictEqual(emu.counters.storeGets, 0);
});

Deno.test("readParquet: a footer length larger than the file, or no PAR1, is a ParquetFormatError and nothing past the file is read", async () => {
  const { content } = await fixture(FILES[0]);
  const tooLong = content.slice();
  new DataView(tooLong.buffer).setUint32(
    tooLong.byteLength - 8,
    tooLong.byteLength * 2,
    true,
  );
  const noMagic = content.slice();
  noMagic.set(new TextEncoder().encode("PAR0"), noMagic.byteLength - 4);
  await using emu = await startEmulator({
    files: {
      "long.parquet": tooLong,
      "magic.parquet": noMagic,
      "tiny.parquet": "PAR1",
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("");
  emu.resetCounters();
  await rejects(
    readParquet(fs, "long.parquet"),
    (e: Error) =>
      e instanceof ParquetFormatError &&
      /footer length \d+ exceeds/.test(e.message),
  );
  strictEqual(emu.counters.storeBytes, 64 * 1024);
  await rejects(
    readParquet(fs, "magic.parquet"),
    (e: Error) =>
      e instanceof ParquetFormatError &&
      /does not end with PAR1/.test(e.message),
  );
  await rejects(readParquet(fs, "tiny.parquet"), ParquetFormatError);
});

Deno.test("readParquet: column chunks the footer places past the file are a ParquetFormatError, in a pool's worker too, and are not fetched", async () => {
  const { content } = await fixture(FILES[0]);
  // The footer kept whole, 200,000 bytes of row groups cut out before it.
  const cut = new Uint8Array(content.byteLength - 200_000);
  cut.set(content.subarray(0, 4));
  cut.set(content.subarray(200_004), 4);
  await using emu = await startEmulator({ files: { "cut.parquet": cut } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const source of [fs, pool]) {
    await source.info("cut.parquet");
    emu.resetCounters();
    await rejects(
      readParquet(source, "cut.parquet", { rowStart: 9_999 }),
      (e: Error) =>
        e instanceof ParquetFormatError && e.rowGroup === 6 &&
        /lies outside the data/.test(e.message),
    );
    // The pool keeps its instance's metadata: the footer is not read again.
    strictEqual(emu.counters.storeBytes, source === fs ? 64 * 1024 : 0);
  }
});

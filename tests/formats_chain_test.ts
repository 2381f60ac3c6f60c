import { deepStrictEqual, equal, ok, strictEqual } from "node:assert/strict";
import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { zipTree } from "../zip.ts";
import { readParquet } from "../parquet.ts";
import { head, lines, tail } from "../text.ts";
import { hdf5Store } from "../hdf5.ts";

// fixtures/zip/make_chain.sh: chain.zip holds stations.snappy.parquet and
// netcdf4.nc stored, notes/log.txt deflated.
const ZIP = new URL("../fixtures/zip/", import.meta.url);
const PARQUET = "stations.snappy.parquet";
const TEXT = "notes/log.txt";
const archive = await Deno.readFile(new URL("chain.zip", ZIP));
const textExpected: {
  sha256: string;
  lines: number;
  head: string[];
  tail: string[];
} = JSON.parse(await Deno.readTextFile(new URL("chain.json", ZIP)))[TEXT];
const parquetExpected: {
  rowGroups: { rows: number; chunks: Record<string, number> }[];
  sums: Record<string, number>;
  probe: { index: number; row: Record<string, unknown> };
} = JSON.parse(
  await Deno.readTextFile(
    new URL(`../fixtures/parquet/${PARQUET}.json`, import.meta.url),
  ),
);
const hdf5Expected: Record<
  string,
  { sum: number; probe: { index: number; value: number }; shape: number[] }
> = JSON
  .parse(
    await Deno.readTextFile(
      new URL("../fixtures/hdf5/expected.json", import.meta.url),
    ),
  )["netcdf4.nc"];

/** The bytes of `file`'s Parquet footer and length word (its last 8 bytes). */
async function parquetFooterSize(): Promise<number> {
  const file = await Deno.readFile(
    new URL(`../fixtures/parquet/${PARQUET}`, import.meta.url),
  );
  return new DataView(file.buffer).getUint32(file.length - 8, true) + 8;
}

/** The central directory's size, from the end record (no comment, no zip64). */
function centralDirectorySize(zip: Uint8Array): number {
  return new DataView(zip.buffer).getUint32(zip.length - 22 + 12, true);
}

function sumOf(values: unknown[]): number {
  return (values.filter((v) => v !== null) as number[]).reduce(
    (a, b) => a + b,
    0,
  );
}

async function serve() {
  const emu = await startEmulator({ files: { "p.zip": archive } });
  return { emu, fs: new RepoFs({ host: emu.host, pid: emu.pid }) };
}

Deno.test("readParquet reads a Parquet file stored inside a zip, on RepoFs and on a pool", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  const columns = ["id", "value", "score"];
  const rows = await readParquet(zipTree(fs, "p.zip"), PARQUET, { columns });
  const { sums, probe } = parquetExpected;
  strictEqual(sumOf(rows.map((r) => r.id)), sums.id);
  ok(Math.abs(sumOf(rows.map((r) => r.value)) - sums.value) < 1e-6);
  strictEqual(sumOf(rows.map((r) => r.score)), sums.score);
  strictEqual(rows.filter((r) => r.score === null).length, sums.scoreNulls);
  deepStrictEqual(
    rows[probe.index],
    Object.fromEntries(columns.map((c) => [c, probe.row[c]])),
  );
  await using pool = new RepoFsPool(fs, { workers: 2 });
  deepStrictEqual(
    await readParquet(zipTree(pool, "p.zip"), PARQUET, { columns }),
    rows,
  );
});

Deno.test("one column of one row group of a Parquet file in a zip fetches its chunk, the footer, the central directory and little else", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  await fs.info("p.zip");
  const group = 3;
  const { rowGroups } = parquetExpected;
  const rowStart = rowGroups.slice(0, group).reduce((a, g) => a + g.rows, 0);
  emu.resetCounters();
  const rows = await readParquet(zipTree(fs, "p.zip"), PARQUET, {
    columns: ["value"],
    rowStart,
    rowEnd: rowStart + rowGroups[group].rows,
  });
  strictEqual(rows.length, rowGroups[group].rows);
  const fetched = emu.counters.storeBytes;
  const chunk = rowGroups[group].chunks.value;
  const footer = await parquetFooterSize();
  const directory = centralDirectorySize(archive);
  ok(fetched >= chunk + footer, `fetched ${fetched}`);
  // readParquet's first read is the file's last 64 KiB, which holds the footer.
  const tail = Math.max(footer, 64 * 1024);
  ok(
    fetched <= chunk + tail + directory + 64 * 1024,
    `fetched ${fetched} > ${chunk} + ${tail} + ${directory} + 64 KiB`,
  );
});

Deno.test("lines, head and tail of a deflated text member inside a zip", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  const tree = zipTree(fs, "p.zip");
  const whole = await tree.catFile(TEXT);
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", whole as Uint8Array<ArrayBuffer>),
  );
  equal(
    Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""),
    textExpected.sha256,
  );
  const all = await Array.fromAsync(lines(tree, TEXT));
  strictEqual(all.length, textExpected.lines);
  deepStrictEqual(await head(tree, TEXT, 3), textExpected.head);
  deepStrictEqual(await tail(tree, TEXT, 3), textExpected.tail);
  // A window cutting lines at both ends: the lines that start inside it.
  const text = new TextDecoder().decode(whole);
  const [start, end] = [100_001, 200_003];
  ok(text[start - 1] !== "\n" && text[end - 1] !== "\n");
  const expected = text.slice(
    text.indexOf("\n", start) + 1,
    text.indexOf("\n", end - 1),
  ).split("\n");
  deepStrictEqual(
    await Array.fromAsync(lines(tree, TEXT, { start, end })),
    expected,
  );
});

Deno.test("hdf5Store reads a NetCDF4 file stored inside a zip", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  const root = zarr.root(hdf5Store(zipTree(fs, "p.zip"), "netcdf4.nc"));
  for (const name of ["temperature", "forecast/precip"]) {
    const arr = await zarr.open(root.resolve(name), { kind: "array" });
    const { data, shape } = await zarr.get(arr);
    const expected = hdf5Expected[name];
    deepStrictEqual(shape, expected.shape, name);
    const values = Array.from(data as ArrayLike<number>);
    ok(
      Math.abs(values.reduce((a, b) => a + b, 0) - expected.sum) <
        1e-9 * Math.abs(expected.sum),
      name,
    );
    equal(values[expected.probe.index], expected.probe.value, name);
  }
  ok(emu.counters.storeBytes < archive.length / 2);
});

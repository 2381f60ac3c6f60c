import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { ParquetFormatError, readParquet } from "../parquet.ts";
import { canonical } from "../fixtures/parquet/canonical.ts";

const FIXTURES = new URL("../fixtures/parquet/", import.meta.url);
const FILES = ["types.arrow.parquet", "types.annotated.parquet"];

/** Rows as columns of values, in the rows' key order. */
function columnsOf(rows: Record<string, unknown>[]) {
  return Object.fromEntries(
    Object.keys(rows[0]).map((name) => [name, rows.map((row) => row[name])]),
  );
}

for (const name of FILES) {
  Deno.test(`readParquet: every column of ${name} as parquet-wasm reads it, on a RepoFs and a pool of 2`, async () => {
    const content = await Deno.readFile(new URL(name, FIXTURES));
    const expected = JSON.parse(
      await Deno.readTextFile(new URL(`${name}.json`, FIXTURES)),
    );
    await using emu = await startEmulator({ files: { "t.parquet": content } });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await using pool = new RepoFsPool(fs, { workers: 2 });
    for (const source of [fs, pool]) {
      const rows = await readParquet(source, "t.parquet");
      strictEqual(rows.length, expected.rows);
      const got = canonical(columnsOf(rows)) as Record<string, unknown>;
      deepStrictEqual(Object.keys(got), Object.keys(expected.columns));
      for (const column of Object.keys(expected.columns)) {
        deepStrictEqual(got[column], expected.columns[column], column);
      }
    }
  });
}

Deno.test("readParquet: bytes without a text annotation stay bytes, text is text", async () => {
  const content = await Deno.readFile(
    new URL("types.annotated.parquet", FIXTURES),
  );
  await using emu = await startEmulator({ files: { "t.parquet": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const [row] = await readParquet(fs, "t.parquet", { rowEnd: 1 });
  deepStrictEqual(row.bytes, new Uint8Array([0xff, 0xff, 1, 2]));
  deepStrictEqual(row.fixed, new Uint8Array([1, 2, 3]));
  deepStrictEqual(row.bson, new Uint8Array([5, 0, 0, 0, 0]));
  strictEqual(row.enum_converted, "red");
  strictEqual(row.json_converted, '{"a":1}');
  strictEqual(row.string_logical, "s");
});

Deno.test("readParquet: a STRING column whose bytes are not UTF-8 is refused naming the column, not turned into U+FFFD", async () => {
  const content = await Deno.readFile(
    new URL("types.annotated.parquet", FIXTURES),
  );
  // The file is uncompressed: the value "ü" (c3 bc) of string_logical is in it as is.
  const bad = content.slice();
  const at = bad.findIndex((b, i) => b === 0xc3 && bad[i + 1] === 0xbc);
  ok(at > 0);
  bad[at + 1] = 0x28;
  await using emu = await startEmulator({ files: { "t.parquet": bad } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(
    readParquet(fs, "t.parquet", { columns: ["string_logical"] }),
    (e: Error) =>
      e instanceof ParquetFormatError && e.column === "string_logical" &&
      e.rowGroup === 0 && /not UTF-8/.test(e.message),
  );
  deepStrictEqual(
    (await readParquet(fs, "t.parquet", { columns: ["bytes"] }))[3].bytes,
    new Uint8Array([0xc3, 0x28]),
  );
});

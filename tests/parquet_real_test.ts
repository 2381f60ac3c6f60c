import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { ParquetFormatError, readParquet } from "../parquet.ts";
import { canonical } from "../fixtures/parquet/canonical.ts";

// Files of apache/parquet-testing (fixtures/parquet/real/SOURCES.md), and
// what parquet-wasm read from each or that it refused it (make_real.ts).
const REAL = new URL("../fixtures/parquet/real/", import.meta.url);
const expected: Record<
  string,
  | { rows: number; columns: Record<string, unknown> }
  | { rows: number; sha256: string }
  | { refused: string }
> = JSON.parse(await Deno.readTextFile(new URL("expected.json", REAL)));

/** The SHA-256 of `text`, in hex. */
async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(text),
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * Files parquet-wasm reads wrongly, which readParquet refuses, and why: the
 * refusal's message matches the pattern.
 */
const ORACLE_WRONG: Record<string, RegExp> = {
  // Spark's years 9999 and 290000: parquet-wasm's nanosecond int64 overflows
  // (it gives 1816 and 1815); the second also has negative nanoseconds of day.
  "int96_from_spark.parquet": /INT96 timestamp has negative nanoseconds of day/,
  // Pages whose bytes fail the CRC-32 in their header (parquet-wasm does not check).
  "datapage_v1-corrupt-checksum.parquet":
    /page 0 \(DATA_PAGE\) fails its CRC-32/,
  "rle-dict-uncompressed-corrupt-checksum.parquet":
    /page 0 \(DICTIONARY_PAGE\) fails its CRC-32/,
};

/** Rows as columns of values, in the rows' key order. */
function columnsOf(rows: Record<string, unknown>[]) {
  return Object.fromEntries(
    Object.keys(rows[0] ?? {}).map((
      name,
    ) => [name, rows.map((row) => row[name])]),
  );
}

Deno.test("readParquet: each real file is read as parquet-wasm reads it, or refused by name where it refuses it, on a RepoFs and a pool of 2, with no unhandled rejection", async () => {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    const files: Record<string, Uint8Array> = {};
    for (const name of Object.keys(expected)) {
      files[name] = await Deno.readFile(new URL(name, REAL));
    }
    await using emu = await startEmulator({ files });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    await using pool = new RepoFsPool(fs, { workers: 2 });
    const outcomes: string[] = [];
    for (const source of [fs, pool]) {
      for (const [name, want] of Object.entries(expected)) {
        if ("refused" in want || name in ORACLE_WRONG) {
          const error = await readParquet(source, name).then(
            () => undefined,
            (e) => e,
          );
          ok(
            error instanceof ParquetFormatError,
            `${name}: ${error?.name}: ${error?.message}`,
          );
          strictEqual(error.path, name);
          ok(ORACLE_WRONG[name]?.test(error.message) ?? true, error.message);
          outcomes.push(`${name}: refused (${error.message})`);
        } else {
          const rows = await readParquet(source, name);
          strictEqual(rows.length, want.rows, name);
          const got = canonical(columnsOf(rows));
          if ("sha256" in want) {
            strictEqual(await sha256(JSON.stringify(got)), want.sha256, name);
          } else deepStrictEqual(got, want.columns, name);
          outcomes.push(`${name}: right`);
        }
      }
    }
    // A tick for any rejection left behind to be reported.
    await new Promise((resolve) => setTimeout(resolve, 50));
    deepStrictEqual(unhandled, []);
    strictEqual(outcomes.length, 2 * Object.keys(expected).length);
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
});

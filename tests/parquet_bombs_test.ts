import { ok, strictEqual } from "node:assert/strict";
import { runCapped } from "./memory_cap.ts";

// Small files whose headers declare more than they can hold
// (fixtures/parquet/make_hostile.ts), each read in a child process killed
// past 300 MB above its baseline.
const HOSTILE: [string, RegExp][] = [
  [
    "page_2gb.parquet",
    /column "n", row group 0: page 0 \(DATA_PAGE_V2\) declares 2147483647 bytes uncompressed, more than the 828 its column chunk/,
  ],
  [
    "dictionary_2gb.parquet",
    /column "w", row group 0: page 0 \(DICTIONARY_PAGE\) declares 2147483647 bytes uncompressed, more than the 130 its column chunk/,
  ],
  [
    "page_and_footer_2gb.parquet",
    /column "n", row group 0: page 0 \(DATA_PAGE_V2\) declares 2147483647 bytes uncompressed, more than the 67108864 its column chunk \(2147483647 bytes uncompressed, SNAPPY\) allows/,
  ],
  [
    "zstd_bomb.parquet",
    /column "n", row group 0: a ZSTD page does not inflate to its declared 800 bytes/,
  ],
  [
    "values_2g.parquet",
    /column "n", row group 0: its column chunk declares 2147483647 values for the 100 rows of its row group/,
  ],
  ["rows_2g.parquet", /column "n", row group 0: its values do not decode/],
];

for (const [name, problem] of HOSTILE) {
  Deno.test(`readParquet: ${name} is a ParquetFormatError naming why, read in under 300 MB`, async () => {
    const run = await runCapped({
      setup: `
        const { RepoFs } = await import(REPO + "mod.ts");
        const { startEmulator } = await import(REPO + "emulator.ts");
        const { readParquet, ParquetFormatError } = await import(REPO + "parquet.ts");
        const content = await Deno.readFile(new URL("fixtures/parquet/hostile/${name}", REPO));
        const emu = await startEmulator({ files: { "h.parquet": content } });
        const fs = new RepoFs({ host: emu.host, pid: emu.pid });
        await fs.info("h.parquet");
      `,
      read: `readParquet(fs, "h.parquet").then(
        (rows) => ({ rows: rows.length }),
        (e) => ({ parquet: e instanceof ParquetFormatError, message: e.message }),
      )`,
    }, 300);
    strictEqual(run.killed, false, `killed at ${run.peakMb} MB`);
    strictEqual(run.code, 0, run.stderr);
    const result = run.result as { parquet: boolean; message: string };
    strictEqual(result.parquet, true, JSON.stringify(result));
    ok(problem.test(result.message), result.message);
    ok(
      run.peakMb - run.baselineMb < 300,
      `peak ${run.peakMb} MB, baseline ${run.baselineMb} MB`,
    );
  });
}

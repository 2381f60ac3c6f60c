// Issue 31 benchmark: one column of one row group of a ~100 MiB Parquet file
// at 20 ms emulator latency, read through `readParquet` on a RepoFs and on a
// RepoFsPool of 2 (decoded in its workers), against downloading the whole
// file and reading the same column and rows with hyparquet from the bytes in
// memory. Every read starts cold (a fresh RepoFs); each is measured `--reps`
// times, alternating. Wall time and bytes from the store.
//
// Command (from the repository root; writes the file first with Apache
// Arrow's Rust writer, parquet-wasm, from npm, as fixtures/parquet/make.ts):
//   deno run --allow-net --allow-read --allow-write --allow-env --allow-run bench/parquet_column.ts
// Options: --rows=3000000 (row groups of 120,000), --reps=3.

import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { deepStrictEqual } from "node:assert/strict";
import { countFlag } from "./flags.ts";
import { compareColdReads } from "./cold_reads.ts";
import { ROW_GROUP as GROUP, writeParquetFile } from "./format_files.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { readParquet } from "../parquet.ts";

const ROWS = countFlag("rows", 3_000_000);
const REPS = countFlag("reps", 3);
const GROUPS = Math.ceil(ROWS / GROUP);
const ROW_START = Math.floor(GROUPS / 2) * GROUP;
const ROW_END = Math.min(ROWS, ROW_START + GROUP);

const dir = await Deno.makeTempDir();
const x = await writeParquetFile(dir, ROWS);
const file = await Deno.readFile(`${dir}/big.parquet`);
await Deno.remove(dir, { recursive: true });
const chunk = parquetMetadata(file.slice().buffer).row_groups[ROW_START / GROUP]
  .columns[1].meta_data!.total_compressed_size;
const expected = Array.from(x.subarray(ROW_START, ROW_END), (x) => ({ x }));
console.log(
  `big.parquet: ${
    (file.length / 2 ** 20).toFixed(1)
  } MiB, ${ROWS} rows in ${GROUPS} row groups, columns id (int32), x, y, z (float64, random), snappy; the column chunk read: ${chunk} bytes`,
);

await using emu = await startEmulator({
  files: { "big.parquet": file },
  faults: { latencyMs: 20 },
});
const options = { columns: ["x"], rowStart: ROW_START, rowEnd: ROW_END };

await compareColdReads(emu, [
  {
    name: "`readParquet` on a pool of 2",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      await using pool = new RepoFsPool(fs, { workers: 2 });
      deepStrictEqual(
        await readParquet(pool, "big.parquet", options),
        expected,
      );
    },
  },
  {
    name: "`readParquet` on `RepoFs`",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      deepStrictEqual(await readParquet(fs, "big.parquet", options), expected);
    },
  },
  {
    name: "download the whole file, then hyparquet over the bytes",
    read: async () => {
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      const whole = await fs.catFile("big.parquet");
      const rows = await parquetReadObjects({
        file: whole.buffer.slice(
          whole.byteOffset,
          whole.byteOffset + whole.byteLength,
        ) as ArrayBuffer,
        ...options,
      });
      deepStrictEqual(rows, expected);
    },
  },
], {
  reps: REPS,
  fileSize: file.length,
  what: `column x, rows ${ROW_START}..${ROW_END}`,
});

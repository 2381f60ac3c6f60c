import { deepStrictEqual, ok, rejects, strictEqual } from "node:assert/strict";
import { parquetMetadata } from "hyparquet";
import { parquetHeader } from "hyparquet/src/column.js";
import { FormatError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { ParquetFormatError, readParquet } from "../parquet.ts";

const content = await Deno.readFile(
  new URL("../fixtures/parquet/stations.snappy.parquet", import.meta.url),
);
const footerLength = new DataView(content.buffer).getUint32(
  content.byteLength - 8,
  true,
);
const metadata = parquetMetadata(
  content.slice(content.byteLength - 8 - footerLength).buffer,
);

/** Where column `column` of row group `group` starts in the file. */
function chunkStart(group: number, column: number): number {
  const meta = metadata.row_groups[group].columns[column].meta_data!;
  return Number(meta.dictionary_page_offset ?? meta.data_page_offset);
}

/** The file with the Snappy preamble of `id`'s first page in row group 0 made wrong. */
function badSnappy(): Uint8Array {
  const bad = content.slice();
  const start = chunkStart(0, 0);
  const reader = { view: new DataView(bad.buffer, start), offset: 0 };
  parquetHeader(reader);
  bad[start + reader.offset] = 0x05; // "5 bytes uncompressed", then far more
  return bad;
}

Deno.test("readParquet: Snappy garbage is a ParquetFormatError naming the column, the row group, the codec and the declared size, with the codec's error as cause", async () => {
  await using emu = await startEmulator({
    files: { "a.parquet": badSnappy() },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  for (const source of [fs, pool]) {
    await rejects(
      readParquet(source, "a.parquet", { columns: ["id"] }),
      (e: Error) =>
        e instanceof ParquetFormatError && e instanceof FormatError &&
        e.column === "id" && e.rowGroup === 0 &&
        /a SNAPPY page does not inflate to its declared 6000 bytes \(missing eof marker\)/
          .test(e.message) &&
        /missing eof marker/.test(String(e.cause)),
    );
  }
  // The other columns and row groups still read.
  const rows = await readParquet(fs, "a.parquet", {
    columns: ["id"],
    rowStart: 1_500,
    rowEnd: 1_502,
  });
  deepStrictEqual(rows, [{ id: 1_500 }, { id: 1_501 }]);
});

Deno.test("readParquet: when hyparquet throws on one row group while another's fetch is pending, the pending one is aborted, drained, and nothing rejects unhandled", async () => {
  const unhandled: unknown[] = [];
  const listener = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    unhandled.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", listener);
  try {
    await using emu = await startEmulator({
      files: { "a.parquet": badSnappy() },
    });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const later = chunkStart(1, 0);
    let pending = 0;
    let aborted = 0;
    // The chunks of row groups 1 on wait until the read gives them up; the
    // footer (read with the file's last 64 KiB) does not.
    const footer = content.byteLength - 64 * 1024;
    const source = {
      info: (path: string) => fs.info(path),
      catFile: (
        path: string,
        options: { start?: number; end?: number; signal?: AbortSignal } = {},
      ) => {
        const start = options.start ?? 0;
        if (start < later || start >= footer) return fs.catFile(path, options);
        pending++;
        return new Promise<Uint8Array>((_, reject) => {
          options.signal?.addEventListener("abort", () => {
            aborted++;
            reject(options.signal?.reason);
          });
        });
      },
    };
    await rejects(
      readParquet(source, "a.parquet", { columns: ["id"] }),
      (e: Error) =>
        e instanceof ParquetFormatError && e.rowGroup === 0 &&
        /missing eof marker/.test(e.message),
    );
    ok(pending >= 5, `${pending} fetches were pending`);
    strictEqual(aborted, pending);
    await new Promise((resolve) => setTimeout(resolve, 50));
    deepStrictEqual(unhandled, []);
  } finally {
    globalThis.removeEventListener("unhandledrejection", listener);
  }
});

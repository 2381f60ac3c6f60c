import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { parquetMetadata } from "hyparquet";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  type ParquetBuffer,
  ParquetFormatError,
  readParquet,
} from "../parquet.ts";
import {
  FOOTER_GUESS,
  MAX_FOOTER,
  readFooter,
} from "../src/formats/parquet/footer.ts";

const content = await Deno.readFile(
  new URL("../fixtures/parquet/stations.snappy.parquet", import.meta.url),
);

function metadataLength(file: Uint8Array): number {
  return new DataView(file.buffer).getUint32(file.byteLength - 8, true);
}

/**
 * The file with `extra` bytes more in its footer: a binary field 100 (which
 * no reader knows, so each skips it) added to the end of its metadata.
 */
function longerFooter(extra: number): Uint8Array {
  const length = metadataLength(content);
  const metadataEnd = content.byteLength - 8;
  const varint = (n: number) => {
    const bytes = [];
    for (; n >= 0x80; n >>>= 7) bytes.push((n & 0x7f) | 0x80);
    return [...bytes, n];
  };
  // Compact protocol: type 8 (binary) with a long-form field id (zigzag 100), its length, its bytes.
  const field = [0x08, ...varint(200), ...varint(extra)];
  const longer = new Uint8Array(content.byteLength + field.length + extra);
  longer.set(content.subarray(0, metadataEnd - 1));
  let at = metadataEnd - 1;
  longer.set(field, at);
  at += field.length + extra;
  longer[at++] = 0; // the metadata's closing STOP, moved past the new field
  const tail = new DataView(longer.buffer, at, 8);
  tail.setUint32(0, length + field.length + extra, true);
  longer.set(content.subarray(content.byteLength - 4), at + 4);
  return longer;
}

Deno.test("readFooter: a footer longer than the first 64 KiB is read in one more range and gives the same rows", async () => {
  const longer = longerFooter(100_000);
  await using emu = await startEmulator({
    files: { "long.parquet": longer, "short.parquet": content },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("");
  const options = { columns: ["id"], rowStart: 0, rowEnd: 1_500 };
  const expected = await readParquet(fs, "short.parquet", options);
  emu.resetCounters();
  deepStrictEqual(await readParquet(fs, "long.parquet", options), expected);
  // The last 64 KiB, the rest of the footer, the one column chunk.
  strictEqual(emu.counters.storeGets, 3);
});

Deno.test("readFooter: the footer's bytes are the file's own, its metadata hyparquet's", async () => {
  const longer = longerFooter(100_000);
  const file: ParquetBuffer = {
    byteLength: longer.byteLength,
    slice: (start, end) => Promise.resolve(longer.slice(start, end).buffer),
  };
  const { bytes, metadata } = await readFooter(file, "long.parquet");
  const length = metadata.metadata_length + 8;
  strictEqual(length > FOOTER_GUESS, true);
  deepStrictEqual(bytes, longer.subarray(longer.byteLength - length));
  const own = parquetMetadata(
    content.slice(content.byteLength - 8 - metadataLength(content)).buffer,
  );
  deepStrictEqual(metadata.row_groups, own.row_groups);
});

Deno.test("readFooter: a footer longer than 64 MiB is a ParquetFormatError naming its length, and is not fetched", async () => {
  const size = 2 ** 30;
  const claimed = 100 << 20;
  const slices: [number, number][] = [];
  const file: ParquetBuffer = {
    byteLength: size,
    slice(start, end = size) {
      slices.push([start, end]);
      const bytes = new Uint8Array(end - start);
      const tail = new DataView(bytes.buffer, bytes.byteLength - 8);
      tail.setUint32(0, claimed, true);
      bytes.set(new TextEncoder().encode("PAR1"), bytes.byteLength - 4);
      return Promise.resolve(bytes.buffer);
    },
  };
  await rejects(
    readFooter(file, "huge.parquet"),
    (e: Error) =>
      e instanceof ParquetFormatError &&
      e.message.includes(
        `its footer length ${claimed} exceeds the ${MAX_FOOTER} bytes`,
      ),
  );
  deepStrictEqual(slices, [[size - FOOTER_GUESS, size]]);
});

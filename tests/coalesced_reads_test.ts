import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  coalescing,
  MERGE_GAP,
  MERGE_MOST,
} from "../src/formats/coalesced_reads.ts";
import {
  AdjacentReads,
  MOST_GAP,
} from "../src/formats/geotiff/adjacent_reads.ts";

const MIB = 2 ** 20;

Deno.test("reads asked together are merged across gaps up to 64 KiB into requests up to 4 MiB, each given its own bytes", async () => {
  const bytes = Uint8Array.from({ length: 10 * MIB }, (_, i) => (i * 7) % 251);
  await using emu = await startEmulator({ files: { "f.bin": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("f.bin");
  const source = coalescing(fs, "f.bin");
  const read = (start: number, end: number) =>
    source.catFile("f.bin", { start, end });

  emu.resetCounters();
  // Nine adjacent reads of 1 MiB: 4 + 4 + 1.
  const ranges = Array.from({ length: 9 }, (_, i) => [i * MIB, (i + 1) * MIB]);
  const got = await Promise.all(ranges.map(([s, e]) => read(s, e)));
  got.forEach((part, i) =>
    deepStrictEqual(part, bytes.subarray(ranges[i][0], ranges[i][1]))
  );
  equal(emu.counters.storeGets, Math.ceil(9 * MIB / MERGE_MOST));

  emu.resetCounters();
  // A gap of exactly 64 KiB is bridged; one byte more is not.
  const near = [[0, 100], [100 + MERGE_GAP, 200 + MERGE_GAP]];
  const far = [[MIB, MIB + 100], [
    MIB + 101 + MERGE_GAP,
    MIB + 200 + MERGE_GAP,
  ]];
  const parts = await Promise.all(
    [...near, ...far].map(([s, e]) => read(s, e)),
  );
  deepStrictEqual(parts[1], bytes.subarray(near[1][0], near[1][1]));
  deepStrictEqual(parts[3], bytes.subarray(far[1][0], far[1][1]));
  equal(emu.counters.storeGets, 3);
});

Deno.test("shared merged reads are views of one request's bytes", async () => {
  const bytes = Uint8Array.from({ length: MIB }, (_, i) => (i * 7) % 251);
  await using emu = await startEmulator({ files: { "f.bin": bytes } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("f.bin");
  const source = coalescing(fs, "f.bin", { shared: true });
  emu.resetCounters();
  const [a, b] = await Promise.all([
    source.catFile("f.bin", { start: 0, end: 100 }),
    source.catFile("f.bin", { start: 1000, end: 1100 }),
  ]);
  deepStrictEqual(a, bytes.subarray(0, 100));
  deepStrictEqual(b, bytes.subarray(1000, 1100));
  equal(a.buffer, b.buffer);
  equal(emu.counters.storeGets, 1);
});

/** Reads of a 1000-byte file valued by offset, each range recorded. */
function file() {
  const ranges: [number, number][] = [];
  const reads = new AdjacentReads((start, end) => {
    ranges.push([start, end]);
    return Promise.resolve(
      Uint8Array.from({ length: end - start }, (_, i) => (start + i) % 256),
    );
  });
  return { reads, ranges };
}

Deno.test("adjacent reads join; each gets its bytes", async () => {
  const { reads, ranges } = file();
  const got = await Promise.all([
    reads.read(200, 210),
    reads.read(0, 10),
    reads.read(10, 20),
    reads.read(20 + MOST_GAP, 30 + MOST_GAP),
    reads.read(500, 510),
  ]);
  deepStrictEqual(ranges, [[0, 30 + MOST_GAP], [200, 210], [500, 510]]);
  deepStrictEqual(got.map((b) => [b[0], b.length]), [
    [200, 10],
    [0, 10],
    [10, 10],
    [20 + MOST_GAP, 10],
    [244, 10],
  ]);
});

Deno.test("reads with other signals stay apart; a failure fails all joined", async () => {
  const ranges: [number, number][] = [];
  const reads = new AdjacentReads((start, end) => {
    ranges.push([start, end]);
    return Promise.reject(new Error(`no bytes ${start}..${end}`));
  });
  const signal = new AbortController().signal;
  const asked = [
    reads.read(0, 10),
    reads.read(10, 20),
    reads.read(20, 30, signal),
  ];
  await rejects(asked[0], /no bytes 0\.\.20/);
  await rejects(asked[1], /no bytes 0\.\.20/);
  await rejects(asked[2], /no bytes 20\.\.30/);
  deepStrictEqual(ranges, [[0, 20], [20, 30]]);
});

import { deepStrictEqual, equal } from "node:assert/strict";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import {
  coalescing,
  MERGE_GAP,
  MERGE_MOST,
} from "../src/formats/coalesced_reads.ts";

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

import { deepStrictEqual, equal, ok, strictEqual } from "node:assert/strict";
import zlib from "node:zlib";
import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { head, lines, tail } from "../text.ts";
import { zipTree } from "../zip.ts";
import { runCapped } from "./memory_cap.ts";
import { repeatedDeflate, zipArchive } from "./zip_archive.ts";
import { tailLength } from "../src/formats/zip/central_directory.ts";

const SLACK = 64 * 1024;
const MiB = 1024 * 1024;

/** 1 MiB of CSV lines of ~80 bytes; every block the same. */
function csvBlock(): { block: Uint8Array; lines: string[] } {
  const rows: string[] = [];
  let length = 0;
  for (let i = 0; length < MiB - 100; i++) {
    const row = `${i},station-${i % 17},${(i * 7919) % 4001},` +
      `${(i * 104729) % 99991},sensor reading within range,${i % 3 === 0}`;
    rows.push(row);
    length += row.length + 1;
  }
  const last = "x".repeat(MiB - length - 1);
  rows.push(last);
  const block = new TextEncoder().encode(rows.join("\n") + "\n");
  equal(block.length, MiB);
  return { block, lines: rows };
}

Deno.test("a 256 MiB deflated CSV in a zip: lines (in windows), tail, head, stream and windows in increasing order fetch its compressed bytes once", async () => {
  const { block, lines: blockLines } = csvBlock();
  const times = 256;
  const member = repeatedDeflate("big.csv", block, times);
  const archive = zipArchive([member]);
  await using emu = await startEmulator({ files: { "data.zip": archive } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("data.zip");
  const compressed = member.data.length;

  // Lines by windows of 64 MiB and a bit, as input splits read them: each window
  // starts a byte before the last one's end and reads past it to its line's end.
  emu.resetCounters();
  const byWindow = zipTree(fs, "data.zip");
  let count = 0;
  let last = "";
  const split = 64 * MiB + 1000;
  for (let start = 0; start < member.size; start += split) {
    const window = { start, end: start + split };
    for await (const line of lines(byWindow, "big.csv", window)) {
      if (count < blockLines.length) equal(line, blockLines[count]);
      count++;
      last = line;
    }
  }
  equal(count, blockLines.length * times);
  equal(last, blockLines.at(-1));
  const byLines = emu.counters.storeBytes;
  // The first pass mounts the archive too: its tail read.
  const mount = tailLength(archive.length);
  ok(
    byLines <= compressed + mount + SLACK,
    `lines: ${byLines} of ${compressed}`,
  );

  // tail steps back from the end: served from what the last pass decoded.
  emu.resetCounters();
  const tree = zipTree(fs, "data.zip");
  deepStrictEqual(await tail(tree, "big.csv", 2), blockLines.slice(-2));
  ok(
    emu.counters.storeBytes <= compressed + SLACK,
    `tail: ${emu.counters.storeBytes} of ${compressed}`,
  );

  emu.resetCounters();
  deepStrictEqual(
    await head(zipTree(fs, "data.zip"), "big.csv", 3),
    blockLines.slice(0, 3),
  );
  ok(emu.counters.storeBytes <= SLACK, `head: ${emu.counters.storeBytes}`);

  // Windows of 3 MiB + 1 byte, in order, to the end: the CRC-32 is checked there.
  emu.resetCounters();
  const window = 3 * MiB + 1;
  let crc = 0;
  for (let start = 0; start < member.size; start += window) {
    const bytes = await tree.catFile("big.csv", {
      start,
      end: start + window,
    });
    equal(bytes.length, Math.min(window, member.size - start));
    crc = zlib.crc32(bytes, crc);
  }
  equal(crc, member.crc32);
  const byWindows = emu.counters.storeBytes;
  ok(byWindows <= compressed + SLACK, `windows: ${byWindows} of ${compressed}`);

  emu.resetCounters();
  let streamed = 0;
  for await (const chunk of zipTree(fs, "data.zip").stream("big.csv")) {
    streamed += chunk.length;
  }
  equal(streamed, member.size);
  ok(emu.counters.storeBytes <= compressed + SLACK);

  // A window behind where the last read stopped costs a pass to it, no more.
  const random = zipTree(fs, "data.zip");
  await random.catFile("big.csv", { start: 200 * MiB, end: 200 * MiB + 10 });
  emu.resetCounters();
  const back = await random.catFile("big.csv", {
    start: 100 * MiB,
    end: 100 * MiB + 10,
  });
  deepStrictEqual(back, block.subarray(0, 10));
  const toIt = compressed * 100 / times;
  ok(
    emu.counters.storeBytes <= toIt + 4 * MiB + SLACK,
    `${emu.counters.storeBytes} for a window at 100 MiB`,
  );
});

Deno.test("a 4 GiB deflated member (4 MB of zip): head and lines in a capped child, each compressed byte fetched once", async () => {
  const run = await runCapped({
    setup: `
      const { RepoFs } = await import(REPO + "mod.ts");
      const { startEmulator } = await import(REPO + "emulator.ts");
      const { head, lines } = await import(REPO + "text.ts");
      const { zipTree } = await import(REPO + "zip.ts");
      const { repeatedDeflate, zipArchive } = await import(REPO + "tests/zip_archive.ts");
      // 16 lines of 65,535 letters per MiB, 4,096 times.
      const block = new TextEncoder().encode(("a".repeat(65535) + "\\n").repeat(16));
      const member = repeatedDeflate("zeros.txt", block, 4096);
      const { tailLength } = await import(REPO + "src/formats/zip/central_directory.ts");
      const archive = zipArchive([member]);
      const emu = await startEmulator({ files: { "g.zip": archive } });
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      await fs.info("g.zip");
    `,
    read: `(async () => {
      emu.resetCounters();
      const first = await head(zipTree(fs, "g.zip"), "zeros.txt", 2);
      const headBytes = emu.counters.storeBytes;
      emu.resetCounters();
      let count = 0;
      let wrong = 0;
      for await (const line of lines(zipTree(fs, "g.zip"), "zeros.txt")) {
        count++;
        if (line.length !== 65535) wrong++;
      }
      return {
        first: first.map((line) => line.length),
        headBytes,
        count,
        wrong,
        linesBytes: emu.counters.storeBytes,
        compressed: member.data.length,
        size: member.size,
        tail: tailLength(archive.length),
      };
    })()`,
  }, 300);
  strictEqual(run.code, 0, run.stderr);
  strictEqual(run.killed, false);
  const result = run.result as Record<string, unknown> & {
    compressed: number;
    tail: number;
    headBytes: number;
    linesBytes: number;
  };
  deepStrictEqual(result.first, [65535, 65535]);
  equal(result.size, 4 * 1024 * MiB);
  equal(result.count, 4096 * 16);
  equal(result.wrong, 0);
  ok(result.compressed < 8 * MiB, `${result.compressed}`);
  ok(result.headBytes <= result.tail + SLACK, `head: ${result.headBytes}`);
  ok(
    result.linesBytes <= result.compressed + SLACK,
    `lines: ${result.linesBytes} of ${result.compressed}`,
  );
  ok(run.peakMb - run.baselineMb < 300, `${run.peakMb} vs ${run.baselineMb}`);
});

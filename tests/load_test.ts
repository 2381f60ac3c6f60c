/**
 * Bounded load: 10,000 concurrent ranged reads, on one `RepoFs` and on a
 * pool of 4, every one right, and the repository never sees more than
 * `headConcurrency` HEADs at once.
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { patterned } from "./support.ts";

const FILE_COUNT = 200;
const FILE_BYTES = 8 * 1024;
const READS = 10_000;

const FILES: Record<string, Uint8Array> = {};
for (let i = 0; i < FILE_COUNT; i++) {
  FILES[`chunks/${i}`] = patterned(FILE_BYTES, i);
}

/** Read number `i`: a file, and a range of it that differs from read to read. */
function request(i: number) {
  const path = `chunks/${i % FILE_COUNT}`;
  const start = (i * 7919) % FILE_BYTES;
  const end = Math.min(FILE_BYTES, start + 1 + ((i * 104_729) % 2048));
  return { path, start, end };
}

async function setup() {
  const emu = await startEmulator({ files: FILES, faults: { latencyMs: 2 } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, headConcurrency: 3 });
  await fs.ls("");
  return { emu, fs, [Symbol.asyncDispose]: () => emu.close() };
}

function checkAll(results: Uint8Array[]) {
  equal(results.length, READS);
  results.forEach((bytes, i) => {
    const { path, start, end } = request(i);
    deepStrictEqual(bytes, FILES[path].slice(start, end), `read ${i}`);
  });
}

Deno.test("10,000 concurrent ranged reads on one RepoFs: all right, at most 3 HEADs at once", async () => {
  await using t = await setup();
  const requests = Array.from({ length: READS }, (_, i) => request(i));
  checkAll(
    await Promise.all(requests.map((r) => t.fs.catFile(r.path, r))),
  );
  equal(t.emu.counters.heads, FILE_COUNT, "one HEAD per file");
  ok(t.emu.counters.peakConcurrentHeads <= 3);
  equal(t.emu.counters.storeGets, READS);
});

Deno.test("10,000 concurrent ranged reads on a pool of 4: all right, at most 3 HEADs at once", async () => {
  await using t = await setup();
  await using pool = new RepoFsPool(t.fs, { workers: 4 });
  const requests = Array.from({ length: READS }, (_, i) => request(i));
  checkAll(await pool.catRanges(requests));
  equal(t.emu.counters.heads, FILE_COUNT, "one HEAD per file for the pool");
  ok(t.emu.counters.peakConcurrentHeads <= 3);
  equal(t.emu.counters.storeGets, READS);
});

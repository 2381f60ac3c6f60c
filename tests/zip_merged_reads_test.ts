import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import zlib from "node:zlib";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { zipTree } from "../zip.ts";
import { MERGE_MOST } from "../src/formats/coalesced_reads.ts";
import { patterned, until } from "./support.ts";
import { type MemberSpec, zipArchive } from "./zip_archive.ts";

const COUNT = 200;
const MEMBER_SIZE = 32 * 1024;

/** Member `i`: every third deflated, the others stored, each its own bytes. */
function member(i: number): { spec: MemberSpec; bytes: Uint8Array } {
  const name = `m/${String(i).padStart(3, "0")}.bin`;
  const bytes = patterned(MEMBER_SIZE - i, i);
  const deflated = i % 3 === 0;
  const data = deflated ? new Uint8Array(zlib.deflateRawSync(bytes)) : bytes;
  const spec = {
    name,
    method: deflated ? 8 : 0,
    data,
    size: bytes.length,
    crc32: zlib.crc32(bytes),
  };
  return { spec, bytes };
}

const MEMBERS = Array.from({ length: COUNT }, (_, i) => member(i));
const NAMES = MEMBERS.map(({ spec }) => spec.name);
const ARCHIVE = zipArchive(MEMBERS.map(({ spec }) => spec));

/** Serves `archive` as data.zip; the tree is mounted and the counters reset. */
async function mounted(archive = ARCHIVE) {
  const emu = await startEmulator({ files: { "data.zip": archive } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tree = zipTree(fs, "data.zip");
  await tree.ls("");
  emu.resetCounters();
  return { emu, fs, tree };
}

Deno.test("200 adjacent members read together come in one GET per 4 MiB, every byte right", async () => {
  const { emu, tree } = await mounted();
  await using _ = emu;
  const read = await Promise.all(NAMES.map((name) => tree.catFile(name)));
  read.forEach((bytes, i) => deepStrictEqual(bytes, MEMBERS[i].bytes));
  const data = ARCHIVE.length - 22 - COUNT * 46 - NAMES.join("").length;
  equal(emu.counters.storeGets, Math.ceil(data / MERGE_MOST));
});

Deno.test("over a pool, members read together come merged too", async () => {
  const { emu, fs } = await mounted();
  await using _ = emu;
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const tree = zipTree(pool, "data.zip");
  await tree.ls("");
  emu.resetCounters();
  const some = NAMES.slice(0, 100);
  const read = await Promise.all(some.map((name) => tree.catFile(name)));
  read.forEach((bytes, i) => deepStrictEqual(bytes, MEMBERS[i].bytes));
  ok(emu.counters.storeGets <= 2, `${emu.counters.storeGets} GETs`);
});

Deno.test("one reader's abort ends its wait alone; a merged GET stops once all its readers abort", async () => {
  const { emu, tree } = await mounted();
  await using _ = emu;
  const some = NAMES.slice(0, 50);
  emu.faults.latencyMs = 300;
  const stops = some.map(() => new AbortController());
  const reads = some.map((name, i) =>
    tree.catFile(name, { signal: stops[i].signal })
  );
  await until(() => emu.counters.concurrentStoreGets > 0, "the merged GET");
  stops[3].abort(new Error("reader 3 gave up"));
  await rejects(reads[3], /reader 3 gave up/);
  const rest = await Promise.all(reads.filter((_, i) => i !== 3));
  rest.forEach((bytes, i) =>
    deepStrictEqual(bytes, MEMBERS[i < 3 ? i : i + 1].bytes)
  );
  equal(emu.counters.storeGets, 1);

  emu.resetCounters();
  emu.faults.latencyMs = 60_000;
  const others = NAMES.slice(50, 100);
  const again = others.map(() => new AbortController());
  const abandoned = others.map((name, i) =>
    tree.catFile(name, { signal: again[i].signal })
  );
  await until(() => emu.counters.concurrentStoreGets > 0, "the merged GET");
  for (const stop of again) stop.abort(new Error("nobody wants it"));
  await Promise.all(abandoned.map((read) => rejects(read, /nobody wants it/)));
  await until(
    () => emu.counters.concurrentStoreGets === 0,
    "the GET aborted",
    10_000,
  );
  equal(emu.counters.storeGets, 1);
});

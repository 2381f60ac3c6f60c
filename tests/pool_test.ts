import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import {
  IsADirectoryError,
  NotFoundError,
  RepoFs,
  RepoFsPool,
  RepoHttpError,
  WorkerCrashedError,
} from "../mod.ts";
import { crashWorker } from "../src/pool.ts";
import { startEmulator } from "../emulator.ts";
import { patterned } from "./support.ts";

function chunkFiles(count: number): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    files[`store.zarr/v/${Math.floor(i / 100)}.${i % 100}`] = patterned(
      64 + (i % 7),
      i,
    );
  }
  return files;
}

Deno.test("catFile and catRanges return the right bytes in request order", async () => {
  const files = chunkFiles(40);
  await using emu = await startEmulator({ files, token: "tok" });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: "tok" });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  equal(pool.size, 2);
  const paths = Object.keys(files).reverse();
  const got = await pool.catRanges(paths.map((path) => ({ path })));
  deepStrictEqual(got, paths.map((p) => files[p]));
  const ranged = await pool.catRanges([
    { path: paths[0], start: 3, end: 9 },
    { path: paths[1], start: -4 },
    { path: paths[2], start: 10, end: 10 },
  ]);
  deepStrictEqual(ranged, [
    files[paths[0]].slice(3, 9),
    files[paths[1]].slice(-4),
    new Uint8Array(0),
  ]);
  equal(emu.counters.heads, 40, "one HEAD per file for the whole pool");
  equal(emu.counters.listingCalls, 1);
  equal(emu.counters.storeRequestsWithToken, 0);
});

Deno.test("4 workers reading 2,000 chunk files keep one HEAD budget", async () => {
  const files = chunkFiles(2000);
  await using emu = await startEmulator({ files, faults: { latencyMs: 2 } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, headConcurrency: 3 });
  await using pool = new RepoFsPool(fs, { workers: 4 });
  const paths = Object.keys(files);
  const got = await pool.catRanges(paths.map((path) => ({ path })));
  ok(got.every((bytes, i) => bytes.byteLength === files[paths[i]].byteLength));
  deepStrictEqual(got[1234], files[paths[1234]]);
  equal(emu.counters.heads, 2000);
  ok(
    emu.counters.peakConcurrentHeads <= 3,
    `peak ${emu.counters.peakConcurrentHeads}`,
  );
  ok(emu.counters.peakConcurrentHeads >= 2, "the budget is used");
});

Deno.test("a failed read rejects only its own promise, with its class", async () => {
  await using emu = await startEmulator({
    files: {
      "ok/a": "alpha",
      "ok/b": "beta",
      "secret": { content: "no", restricted: true },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const results = await Promise.allSettled([
    pool.catFile("ok/a"),
    pool.catFile("missing"),
    pool.catFile("ok"),
    pool.catFile("secret"),
    pool.catFile("ok/b"),
  ]);
  const text = (r: PromiseSettledResult<Uint8Array>) =>
    r.status === "fulfilled" ? new TextDecoder().decode(r.value) : r.reason;
  equal(text(results[0]), "alpha");
  equal(text(results[4]), "beta");
  ok(text(results[1]) instanceof NotFoundError);
  equal(text(results[1]).code, "ENOENT");
  ok(text(results[2]) instanceof IsADirectoryError);
  const denied = text(results[3]);
  ok(denied instanceof RepoHttpError);
  equal(denied.status, 403);
  ok(denied.message.includes("Not authorized"), denied.message);
  equal(new TextDecoder().decode(await pool.catFile("ok/a")), "alpha");
});

Deno.test("a worker that dies fails its own requests and is replaced", async () => {
  const files = chunkFiles(8);
  await using emu = await startEmulator({ files, faults: { latencyMs: 400 } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, headConcurrency: 8 });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const paths = Object.keys(files);
  await pool.info("");
  const reads = paths.map((path) => pool.catFile(path));
  await new Promise((resolve) => setTimeout(resolve, 100));
  pool[crashWorker](0);
  const settled = await Promise.allSettled(reads);
  const crashed = settled.filter((r) => r.status === "rejected");
  const fine = settled.filter((r) => r.status === "fulfilled");
  equal(crashed.length, 4, "the dead worker's half");
  equal(fine.length, 4, "the other worker's half");
  for (const r of crashed) {
    ok((r as PromiseRejectedResult).reason instanceof WorkerCrashedError);
  }
  emu.faults.latencyMs = 0;
  const again = await pool.catRanges(paths.map((path) => ({ path })));
  deepStrictEqual(again, paths.map((p) => files[p]), "the pool still works");
});

Deno.test("close() ends the workers; later calls reject", async () => {
  await using emu = await startEmulator({ files: { a: "1" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const pool = new RepoFsPool(fs, { workers: 1 });
  equal(new TextDecoder().decode(await pool.catFile("a")), "1");
  await pool.close();
  await rejects(pool.catFile("a"), /closed/);
  await pool.close();
});

Deno.test("bad worker counts are TypeErrors", () => {
  const fs = new RepoFs({ host: "http://127.0.0.1:1", pid: "doi:1/2" });
  for (const workers of [0, -1, 1.5]) {
    let error: unknown;
    try {
      new RepoFsPool(fs, { workers });
    } catch (e) {
      error = e;
    }
    ok(error instanceof TypeError && /workers/.test(error.message));
  }
});

Deno.test("downloadToFile: a worker writes, checks and renames; cancelling leaves nothing", async () => {
  const big = patterned(3 * 1024 * 1024, 5);
  await using emu = await startEmulator({
    files: {
      "data/big.bin": big,
      "bad.bin": { content: "abc", md5: "0".repeat(32) },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const dir = await Deno.makeTempDir();
  try {
    let progress = 0;
    const target = `${dir}/big.bin`;
    const done = await pool.downloadToFile("data/big.bin", target, {
      onBytes: (bytes) => (progress += bytes),
    });
    deepStrictEqual(done, { bytes: big.byteLength, verified: "md5" });
    equal(progress, big.byteLength);
    deepStrictEqual(await Deno.readFile(target), big);

    await rejects(
      pool.downloadToFile("bad.bin", `${dir}/bad.bin`),
      /MD5 mismatch/,
    );

    emu.faults.latencyMs = 300;
    const controller = new AbortController();
    const cancelled = pool.downloadToFile("data/big.bin", `${dir}/again.bin`, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    await rejects(cancelled);
    emu.faults.latencyMs = 0;
    const left = [];
    for await (const entry of Deno.readDir(dir)) left.push(entry.name);
    deepStrictEqual(left, ["big.bin"], "no partial or failed file is left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

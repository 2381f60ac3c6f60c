import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import {
  IsADirectoryError,
  NotFoundError,
  RepoFs,
  RepoFsPool,
  RepoHttpError,
  WorkerCrashedError,
} from "../mod.ts";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { crashWorker } from "../src/pool/pool.ts";
import { downloadToFile } from "../src/download/file_download.ts";
import type { RepoFile } from "../src/repo_file.ts";
import type { FileInfo } from "../src/base/types.ts";
import { startEmulator } from "../emulator.ts";
import { md5, patterned, until } from "./support.ts";
import { portalPage } from "./emulator_faults.ts";

const PARTIAL = ".repo-fs-partial-";

/** Counts the workers started until disposed. */
function countWorkers(): { count: number } & Disposable {
  const original = globalThis.Worker;
  const counter = {
    count: 0,
    [Symbol.dispose]: () => void (globalThis.Worker = original),
  };
  globalThis.Worker = class extends original {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      super(...args);
      counter.count++;
    }
  };
  return counter;
}

/** A temporary folder, removed on dispose. */
async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.makeTempDir();
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

/** The names in `dir`, sorted. */
async function namesIn(dir: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

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

Deno.test("4 workers reading 500 chunk files keep one HEAD budget", async () => {
  const files = chunkFiles(500);
  await using emu = await startEmulator({ files, faults: { latencyMs: 2 } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, headConcurrency: 3 });
  await using pool = new RepoFsPool(fs, { workers: 4 });
  const paths = Object.keys(files);
  const got = await pool.catRanges(paths.map((path) => ({ path })));
  ok(got.every((bytes, i) => bytes.byteLength === files[paths[i]].byteLength));
  deepStrictEqual(got[321], files[paths[321]]);
  equal(emu.counters.heads, 500);
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
  crashWorker(pool, 0);
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

Deno.test("the constructor starts no worker itself: they start after it returns, and a pool closed at once starts none", async () => {
  await using emu = await startEmulator({ files: { a: "1" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  {
    using spawned = countWorkers();
    const closed = new RepoFsPool(fs, { workers: 2 });
    await closed.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    equal(spawned.count, 0, "closed before its workers' turn");
  }
  using spawned = countWorkers();
  await using pool = new RepoFsPool(fs, { workers: 2 });
  equal(spawned.count, 0, "none while the constructor ran");
  equal(new TextDecoder().decode(await pool.catFile("a")), "1");
  equal(spawned.count, 2);
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

Deno.test("a worker module that cannot load is tried 3 times, then every call says why", async () => {
  await using emu = await startEmulator({ files: { a: "1" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using dir = await tempDir();
  const modules = [
    ["throws.ts", 'throw new Error("no worker today");', /no worker today/],
    ["syntax.ts", "const x = ;", /SyntaxError/],
  ] as const;
  for (const [name, source, reason] of modules) {
    const file = join(dir.path, name);
    await Deno.writeTextFile(file, source);
    using spawned = countWorkers();
    const pool = new RepoFsPool(fs, {
      workers: 1,
      workerUrl: pathToFileURL(file),
    });
    const saysWhy = (error: Error) => {
      ok(error instanceof WorkerCrashedError, String(error));
      match(error.message, /could not start/);
      match(error.message, reason);
      return true;
    };
    await rejects(pool.catFile("a"), saysWhy);
    await rejects(pool.catRanges([{ path: "a" }]), saysWhy);
    equal(spawned.count, 3, `${name}: workers started`);
    await pool.close();
    await rejects(pool.catFile("a"), /closed/);
  }
});

Deno.test("an aborted catFile rejects with the abort reason and the pool stays usable", async () => {
  const big = patterned(64 * 1024, 3);
  await using emu = await startEmulator({ files: { "big.bin": big, a: "1" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  await pool.info("");
  emu.faults.rules.push({
    route: "content",
    trickle: { bytes: 64, everyMs: 50 },
    times: Infinity,
  });
  const controller = new AbortController();
  const reason = new Error("the caller changed its mind");
  const read = pool.catFile("big.bin", { signal: controller.signal });
  await until(() => emu.counters.storeGets > 0, "a store GET");
  controller.abort(reason);
  await rejects(read, (error) => error === reason);
  const ranges = pool.catRanges([{ path: "big.bin" }, { path: "a" }], {
    signal: AbortSignal.abort(reason),
  });
  await rejects(ranges, (error) => error === reason);
  emu.faults.rules = [];
  emu.resetCounters();
  deepStrictEqual(
    await pool.catFile("big.bin", { start: 5, end: 9 }),
    big.slice(5, 9),
  );
  equal(emu.counters.storeGets, 1, "the pre-aborted reads sent nothing");
});

Deno.test("an abort or close() ends a call still waiting for the listing, here and on a RepoFs, and the listing goes on", async () => {
  const files = { "a.bin": patterned(100, 1) };
  // The listing, 16 bytes every 200 ms: several seconds.
  await using emu = await startEmulator({
    files,
    faults: {
      rules: [{
        route: "listing",
        trickle: { bytes: 16, everyMs: 200 },
        times: Infinity,
      }],
    },
  });
  const [slow] = emu.faults.rules;
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const pool = new RepoFsPool(fs, { workers: 1 });
  let listed = false;
  const listing = fs.info("").then(() => listed = true);
  const stop = new AbortController();
  const reason = new Error("not wanted");
  const here = fs.catFile("a.bin", { signal: stop.signal });
  const pooled = pool.catFile("a.bin", { signal: stop.signal });
  const untilClose = pool.catFile("a.bin");
  stop.abort(reason);
  await rejects(here, (e) => e === reason);
  await rejects(pooled, (e) => e === reason);
  await pool.close();
  await rejects(untilClose, /The RepoFsPool was closed/);
  equal(listed, false, "all of it before the listing came");
  slow.trickle = undefined;
  await listing;
  deepStrictEqual(await fs.catFile("a.bin"), files["a.bin"]);
});

Deno.test("close() in the middle of many downloads leaves no temporary file once it resolves, and every file kept is whole", async () => {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 60; i++) files[`f${i}.bin`] = patterned(20_000 + i, i);
  await using emu = await startEmulator({ files });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.info("");
  for (let round = 0; round < 4; round++) {
    await using out = await tempDir();
    const pool = new RepoFsPool(fs, { workers: 2 });
    const downloads = Object.keys(files).map((name) =>
      pool.downloadToFile(name, join(out.path, name)).catch(() => undefined)
    );
    // Closed at moments spread over the downloads' time.
    await new Promise((ok) => setTimeout(ok, round * 30));
    await pool.close();
    const left = await namesIn(out.path);
    deepStrictEqual(
      left.filter((name) => name.includes(".repo-fs-partial-")),
      [],
      `round ${round}`,
    );
    for (const name of left) {
      deepStrictEqual(await Deno.readFile(join(out.path, name)), files[name]);
    }
    await Promise.all(downloads);
  }
});

Deno.test("a worker that ignores a cancel is ended within the grace; the pool removes its temporary file", async () => {
  await using emu = await startEmulator({ files: { "a.bin": "abc" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using dir = await tempDir();
  const stuck = join(dir.path, "stuck_worker.ts");
  await Deno.writeTextFile(
    stuck,
    `self.onmessage = ({ data }) => {
      if (data.type === "download") Deno.writeTextFileSync(data.temporary, "half");
    };
    self.postMessage({ type: "ready" });`,
  );
  const out = join(dir.path, "out");
  await Deno.mkdir(out);
  using spawned = countWorkers();
  await using pool = new RepoFsPool(fs, {
    workers: 1,
    workerUrl: pathToFileURL(stuck),
  });
  const controller = new AbortController();
  const reason = new Error("stop now");
  const download = pool.downloadToFile("a.bin", join(out, "a.bin"), {
    signal: controller.signal,
  });
  // The pool makes the temporary file itself: wait for the worker's "half" in it.
  await until(
    async () =>
      (await Promise.all(
        (await namesIn(out)).map((name) => Deno.readTextFile(join(out, name))),
      )).includes("half"),
    "the stuck worker's write",
  );
  ok((await namesIn(out))[0].includes(PARTIAL));
  controller.abort(reason);
  await rejects(download, (error) => error === reason);
  deepStrictEqual(await namesIn(out), [], "the temporary file is removed");
  equal(spawned.count, 2, "the stuck worker was replaced");
});

/** A `RepoFile` that streams `content`, whatever the listing says. */
function served(content: string): RepoFile {
  const bytes = new TextEncoder().encode(content);
  return {
    path: "x",
    size: bytes.byteLength,
    read: () => Promise.resolve(bytes),
    stream: () => ReadableStream.from([bytes]),
  };
}

Deno.test("downloadToFile keeps only what the listing vouches for; only a tabular file may be longer", async () => {
  await using dir = await tempDir();
  const table = "name\tvalue\na\t1\n";
  const check = (content: string, listing: Partial<FileInfo>) =>
    downloadToFile(served(content), {
      name: "x",
      type: "file",
      size: new TextEncoder().encode(content).byteLength,
      ...listing,
    }, join(dir.path, "x"));
  deepStrictEqual(await check("abc", { md5: md5("abc") }), {
    bytes: 3,
    verified: "md5",
  });
  deepStrictEqual(await check("abc", {}), { bytes: 3, verified: "size" });
  deepStrictEqual(await check("abc", { size: null }), {
    bytes: 3,
    verified: "none",
  });
  await rejects(check("abc", { md5: "0".repeat(32) }), /MD5 mismatch/);
  await rejects(
    check("<html>login</html>", { size: 0, md5: md5("") }),
    /long download: 18 bytes received, the listing says 0; not kept/,
  );
  await rejects(
    check("abcdef", { size: 4 }),
    /long download: 6 bytes received, the listing says 4/,
  );
  await rejects(check("ab", { size: 10 }), /short download: 2 of 10 listed/);
  deepStrictEqual(
    await check(table, { size: 4, md5: "1".repeat(32), tabular: true }),
    { bytes: 15, verified: "none" },
    "a tabular file's MD5 is of the original upload",
  );
  deepStrictEqual(
    await check(table, { size: 4, md5: md5(table), tabular: true }),
    { bytes: 15, verified: "md5" },
  );
  deepStrictEqual(await check(table, { size: 4, tabular: true }), {
    bytes: 15,
    verified: "none",
  });
  await rejects(
    check(table, { size: 100, tabular: true }),
    /short download: 15 of 100/,
  );
  deepStrictEqual(await namesIn(dir.path), ["x"], "no temporary file is left");
  equal(await Deno.readTextFile(join(dir.path, "x")), table);
});

Deno.test("a login page served instead of a file is never kept", async () => {
  await using emu = await startEmulator({
    files: {
      "empty.txt": "",
      "ten.txt": "0123456789",
      "table.tab": { content: "a\tb\n1\t2\n", listedSize: 4, tabular: true },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using dir = await tempDir();
  const get = async (path: string) =>
    downloadToFile(
      await fs.open(path),
      await fs.info(path),
      join(dir.path, path),
    );
  for (const path of ["empty.txt", "ten.txt"]) {
    emu.faults.rules = [portalPage()];
    const result = await get(path).catch((error: Error) => error);
    if (result instanceof Error) {
      match(result.message, /\b18\b.*\blisting says\b/, path);
    } else {
      equal(path, "empty.txt", "only a 0-byte file can be read without a GET");
      deepStrictEqual(result, { bytes: 0, verified: "md5" });
      equal(emu.faults.rules.length, 1, "the page was never asked for");
      await Deno.remove(join(dir.path, path));
    }
    deepStrictEqual(await namesIn(dir.path), [], `${path}: nothing kept`);
  }
  emu.faults.rules = [];
  deepStrictEqual(await get("table.tab"), { bytes: 8, verified: "md5" });
});

// The test seams of src/pool/pool.ts that other tests rely on.
import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { WorkerCrashedError } from "../src/base/errors.ts";
import { crashWorker, RepoFsPool, urlMessageCounts } from "../src/pool/pool.ts";
import { RepoFs } from "../src/repo_fs.ts";

Deno.test("crashWorker crashes one worker; its reads fail, the next succeed", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello", "b.txt": "world" },
  });
  await using pool = new RepoFsPool(
    new RepoFs({ host: emu.host, pid: emu.pid }),
    { workers: 1 },
  );
  await pool.catFile("a.txt"); // the worker is up
  // b.txt's URL takes a minute to come
  emu.faults.rules.push({ route: "head", delayMs: 60_000, times: Infinity });
  const read = pool.catFile("b.txt");
  crashWorker(pool, 0);
  await rejects(read, WorkerCrashedError);
  emu.faults.rules = [];
  const again = await pool.catFile("b.txt"); // read by the worker that took its place
  strictEqual(new TextDecoder().decode(again), "world");
});

Deno.test("urlMessageCounts counts the URL asks", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a", "b.txt": "b" },
  });
  await using pool = new RepoFsPool(
    new RepoFs({ host: emu.host, pid: emu.pid }),
    { workers: 1 },
  );
  deepStrictEqual(urlMessageCounts(pool), {
    askMessages: 0,
    asks: 0,
    answerMessages: 0,
  });
  await pool.catRanges([{ path: "a.txt" }, { path: "b.txt" }]);
  strictEqual(urlMessageCounts(pool).asks, 2); // one per file
});

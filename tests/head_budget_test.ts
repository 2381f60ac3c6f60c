/**
 * The HEAD budget counts what the repository sees: a HEAD that timed out is
 * still open at the repository until its connection is gone, so its slot is
 * not given to the next HEAD before then. HEADs are counted open from the
 * call of `fetch` until it settles, its connection torn down: the
 * emulator's own count notices a closed connection some time after the
 * client closed it (on a loaded machine, after the next HEAD has come), so
 * its peak is no measure of what the client held open.
 */
import { equal, ok, rejects } from "node:assert/strict";
import type { Emulator } from "../emulator.ts";
import { RepoConnectionError, RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { patterned } from "./support.ts";

const FILES: Record<string, Uint8Array> = {};
for (let i = 0; i < 20; i++) FILES[`c/${i}`] = patterned(64, i);

/** Resolves once the repository has seen every HEAD's connection go. */
async function allHeadsGone(emu: Emulator): Promise<void> {
  for (let i = 0; i < 1000 && emu.counters.concurrentHeads > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  equal(emu.counters.concurrentHeads, 0, "a HEAD is left open");
}

async function stalledHeads() {
  const emu = await startEmulator({ files: FILES });
  const heads = { open: 0, peak: 0 };
  const counting: typeof fetch = async (input, init) => {
    if (init?.method !== "HEAD") return await fetch(input, init);
    heads.peak = Math.max(heads.peak, ++heads.open);
    try {
      return await fetch(input, init);
    } finally {
      heads.open--;
    }
  };
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    timeoutMs: 100,
    retry: { retries: 2, baseDelayMs: 0, maxDelayMs: 0 },
    fetch: counting,
  });
  await fs.ls("");
  emu.faults.rules.push({ route: "head", delayMs: 3_600_000, times: Infinity });
  return { emu, fs, heads, [Symbol.asyncDispose]: () => emu.close() };
}

Deno.test("one catFile with stalling HEADs keeps one HEAD open at the repository", async () => {
  await using t = await stalledHeads();
  await rejects(t.fs.catFile("c/0"), (e: unknown) => {
    ok(e instanceof RepoConnectionError, String(e));
    ok(/nothing received for 100 ms/.test(e.message), e.message);
    return true;
  });
  equal(t.emu.counters.heads, 3, "the first attempt and 2 retries");
  equal(t.heads.peak, 1);
  await allHeadsGone(t.emu);
});

Deno.test("a pool of 2 with stalling HEADs keeps the budget of 3 at the repository", async () => {
  await using t = await stalledHeads();
  await using pool = new RepoFsPool(t.fs, { workers: 2 });
  const reads = await Promise.allSettled(
    Object.keys(FILES).map((path) => pool.catFile(path)),
  );
  for (const read of reads) {
    ok(
      read.status === "rejected" && read.reason instanceof RepoConnectionError,
    );
  }
  equal(t.emu.counters.heads, 3 * 20, "every file's three attempts");
  equal(t.heads.peak, 3, "the whole budget, never more");
  await allHeadsGone(t.emu);
});

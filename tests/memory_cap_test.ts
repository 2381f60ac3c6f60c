import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { runCapped } from "./memory_cap.ts";

Deno.test("memory cap: a child that stays small reports its value and a peak near its baseline", async () => {
  const run = await runCapped({
    setup: `const { RepoFs } = await import(REPO + "mod.ts");`,
    read: `typeof RepoFs`,
  }, 300);
  strictEqual(run.code, 0, run.stderr);
  deepStrictEqual(run.result, "function");
  strictEqual(run.killed, false);
  ok(run.peakMb - run.baselineMb < 100, `${run.peakMb} vs ${run.baselineMb}`);
});

Deno.test("memory cap: a child that holds 1 GB is killed past its cap", async () => {
  const run = await runCapped({
    setup: "const held: Uint8Array[] = [];",
    // It holds what it took until killed (or 60 s pass), so the parent sees it however loaded the machine.
    read:
      `(async () => { for (let i = 0; i < 64; i++) held.push(new Uint8Array(16 << 20).fill(1)); await new Promise((r) => setTimeout(r, 60_000)); return held.length; })()`,
  }, 200);
  strictEqual(run.killed, true);
  strictEqual(run.result, undefined);
  ok(run.peakMb - run.baselineMb > 200);
});

import { ok, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { runCapped } from "./memory_cap.ts";

const MB = 1_000_000;

/** A 200 MB file of one line and a short last one, served to a capped child. */
async function longLine(read: string) {
  const content = new Uint8Array(200 * MB + 6).fill(0x61);
  content.set(new TextEncoder().encode("\nlast\n"), 200 * MB);
  await using emu = await startEmulator({
    files: { "one.txt": { content, checksum: null } },
  });
  return await runCapped({
    setup: `const { RepoFs } = await import(REPO + "mod.ts");
const { head, tail } = await import(REPO + "text.ts");
const fs = new RepoFs({ host: ${JSON.stringify(emu.host)}, pid: ${
      JSON.stringify(emu.pid)
    } });
await fs.info("one.txt");
const refusal = (p) => p.then((v) => ({ value: v }), (e) => ({ name: e.name, message: e.message }));`,
    read,
  });
}

for (const verb of ["head", "tail"]) {
  Deno.test(`a 200 MB line: ${verb} refuses it by the 64 MiB limit, under 300 MB above baseline`, async () => {
    const n = verb === "head" ? 1 : 2;
    const run = await longLine(`refusal(${verb}(fs, "one.txt", ${n}))`);
    strictEqual(run.code, 0, run.stderr);
    strictEqual(run.killed, false);
    const result = run.result as { name?: string; message?: string };
    strictEqual(result.name, "FormatError", JSON.stringify(result));
    ok(
      result.message!.includes(
        "a line is longer than 67108864 bytes (the maxLineBytes limit)",
      ),
      result.message,
    );
    ok(run.peakMb - run.baselineMb < 300, `${run.peakMb - run.baselineMb} MB`);
  });
}

Deno.test("a 200 MB line: tail of the short line after it is the right answer, reading little", async () => {
  const run = await longLine(`tail(fs, "one.txt", 1)`);
  strictEqual(run.code, 0, run.stderr);
  strictEqual(JSON.stringify(run.result), JSON.stringify(["last"]));
  ok(run.peakMb - run.baselineMb < 300, `${run.peakMb - run.baselineMb} MB`);
});

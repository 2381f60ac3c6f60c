import { equal, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator.ts";
import { Progress, progressLine } from "../src/cli/progress.ts";
import { patterned, runCli } from "./support.ts";
import { Output } from "../src/cli/io.ts";

Deno.test("no rate or ETA before a second of data; files and bytes each with their own fraction", () => {
  equal(
    progressLine({
      files: 0,
      totalFiles: 4,
      bytes: 1024,
      totalBytes: 4096,
      seconds: 0.5,
    }),
    "0/4 files (0%)  1.0 KiB/4.0 KiB (25%)  [#####---------------]",
  );
  equal(
    progressLine({
      files: 3,
      totalFiles: 10,
      bytes: 2048,
      totalBytes: 4096,
      seconds: 2,
    }, 120),
    "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)  [##########----------]  1.0 KiB/s  ETA 0:02",
  );
  // The rate counts the bytes measured, not those counted at its start.
  equal(
    progressLine({
      files: 0,
      totalFiles: 1,
      bytes: 3072,
      totalBytes: 4096,
      seconds: 2,
      measuredBytes: 1024,
    }, 120),
    "0/1 files (0%)  3.0 KiB/4.0 KiB (75%)  [###############-----]  512 B/s  ETA 0:02",
  );
  // All bytes in, not all files: the fractions say so apart.
  equal(
    progressLine({
      files: 110,
      totalFiles: 217,
      bytes: 4096,
      totalBytes: 4096,
      seconds: 4,
    }, 120),
    "110/217 files (50%)  4.0 KiB/4.0 KiB (100%)  [####################]  1.0 KiB/s",
  );
  equal(
    progressLine({
      files: 1,
      totalFiles: 2,
      bytes: 5000,
      totalBytes: 0,
      seconds: 0,
    }),
    "1/2 files (50%)  4.9 KiB",
  );
});

Deno.test("the line fits the width, dropping the bar, then the rate, then the ETA", () => {
  const state = {
    files: 3,
    totalFiles: 10,
    bytes: 2048,
    totalBytes: 4096,
    seconds: 2,
  };
  equal(
    progressLine(state),
    "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)  [##########----------]  1.0 KiB/s  ETA 0:02",
  );
  equal(
    progressLine(state, 60),
    "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)  1.0 KiB/s  ETA 0:02",
  );
  equal(
    progressLine(state, 50),
    "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)  ETA 0:02",
  );
  equal(progressLine(state, 40), "3/10 files (30%)  2.0 KiB/4.0 KiB (50%)");
  equal(progressLine(state, 21), "3/10 files (30%)");
  equal(progressLine(state, 10), "3/10 files");
});

const MIB = 1024 * 1024;
const REPO = fileURLToPath(new URL("..", import.meta.url));
const ESC = String.fromCharCode(27);
const TERMINAL_CONTROL = new RegExp(`${ESC}\\[[0-9;]*[A-Za-z]`, "g");

/** `get` run in a pseudo-terminal of `columns` columns (util-linux `script`); everything it wrote. */
async function getInTerminal(
  columns: number,
  args: string[],
): Promise<string> {
  const cli = [
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-net",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    join(REPO, "cli.ts"),
    ...args,
  ].map((word) => `'${word}'`).join(" ");
  const { code, stdout } = await new Deno.Command("script", {
    args: ["-qfec", `stty cols ${columns}; ${cli}`, "/dev/null"],
    env: { NO_COLOR: "1", REPO_API_TOKEN: "" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout);
  equal(code, 0, text);
  return text;
}

/** The progress frames drawn in place: each line drawn after a clear, controls removed. */
function frames(text: string): string[] {
  return text.split("\r\x1b[2K").slice(1)
    .map((frame) => frame.split(/[\r\n]/)[0].replace(TERMINAL_CONTROL, ""))
    .filter((frame) => /^\d+\/\d+ files/.test(frame));
}

Deno.test({
  name:
    "in a terminal of 60 and of 120 columns the line fits; from a pipe, plain lines",
  ignore: Deno.build.os !== "linux",
  async fn() {
    await using emu = await startEmulator({
      files: {
        "small.bin": patterned(6 * MIB, 1),
        "big.bin": patterned(16 * MIB, 2),
      },
      // A lower bound on how long the bodies take: 1 MiB (a worker's
      // progress step) in no less than 400 ms.
      faults: {
        rules: [{
          route: "content",
          trickle: { bytes: MIB / 4, everyMs: 100 },
          times: Infinity,
        }],
      },
    });
    const tmp = await Deno.makeTempDir();
    try {
      const target = ["--host", emu.host, "--pid", emu.pid, "get"];
      const [narrow, wide, piped] = await Promise.all([
        getInTerminal(60, [...target, "small.bin", "-o", join(tmp, "60")]),
        getInTerminal(120, [...target, "small.bin", "-o", join(tmp, "120")]),
        runCli([...target, "big.bin", "-o", join(tmp, "pipe")]),
      ]);
      for (const [columns, text] of [[60, narrow], [120, wide]] as const) {
        const drawn = frames(text);
        ok(drawn.length >= 2, text);
        for (const frame of drawn) {
          ok(frame.length <= columns - 1, `${columns}: ${frame}`);
        }
        ok(!drawn[0].includes("/s"), `no rate at first: ${drawn[0]}`);
        const measured = drawn.filter((frame) => frame.includes("/s"));
        ok(measured.length > 0, `a rate after a second: ${text}`);
        ok(text.includes("Downloaded 1 of 1 files"), text);
      }
      ok(frames(wide).some((f) => f.includes("[") && f.includes("ETA")));
      ok(frames(narrow).every((f) => !f.includes("[")), "no bar at 60");
      ok(frames(narrow).some((f) => f.includes("ETA")), "ETA kept at 60");

      equal(piped.code, 0, piped.stderr);
      ok(
        !piped.stderr.includes("\r") && !piped.stderr.includes(ESC),
        JSON.stringify(piped.stderr),
      );
      const lines = piped.stderr.split("\n").filter((line) => line !== "");
      ok(lines.length >= 1, "a line after 5 s of a 6 s body");
      for (const line of lines) {
        ok(line.startsWith("progress: 0/1 files (0%)  "), line);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test("progress counts and redraws", () => {
  const out = new Output();
  const drawn: string[] = [];
  out.progress = (line) => {
    drawn.push(line);
  }; // instead of the terminal
  const progress = new Progress(out, 2, 10);
  progress.add(10);
  strictEqual(
    drawn[0],
    "0/2 files (0%)  10 B/10 B (100%)  [####################]",
  );
  progress.fileDone();
  progress.finish();
});

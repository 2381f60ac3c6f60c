// Runs a hostile-file read in a child process with a cap on its memory: the
// child marks its baseline (after set-up, with the peak reset), the parent
// kills it past baseline + cap, and the child reports its own peak.

import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** What a capped child ended with. */
export interface CappedRun {
  /** The child's exit code. */
  code: number;
  /** True when the parent killed it for going past the cap. */
  killed: boolean;
  /** Resident memory at the baseline mark, in MB. */
  baselineMb: number;
  /** The highest resident memory after the mark, in MB (the child's own `VmHWM`, or the parent's watch when killed). */
  peakMb: number;
  /** What the child returned (JSON), when it finished. */
  result: unknown;
  /** The child's standard error. */
  stderr: string;
}

/**
 * The code the child runs: `setup` (top-level code: imports and fixtures),
 * then the baseline mark, then `read`, an expression whose value is sent
 * back as JSON. Inside both, `REPO` is the repository's folder as a file URL
 * ending in `/`, for imports (`${REPO}mod.ts`).
 */
export interface CappedScript {
  setup: string;
  read: string;
}

const MARK = "--baseline--";
const RESULT = "--result--";

/**
 * Runs `script` in a fresh Deno process (all permissions) and kills it if
 * its resident memory goes `capMb` above the baseline mark.
 */
export async function runCapped(
  script: CappedScript,
  capMb = 300,
): Promise<CappedRun> {
  const dir = await Deno.makeTempDir({ prefix: "repo-fs-capped-" });
  try {
    const file = join(dir, "child.ts");
    const repo = new URL("..", import.meta.url).href;
    await Deno.writeTextFile(
      file,
      `const REPO = ${JSON.stringify(repo)};\n${script.setup}\n` +
        `Deno.writeTextFileSync("/proc/self/clear_refs", "5");\n` +
        `console.log(${JSON.stringify(MARK)} + ${rssExpression("VmRSS")});\n` +
        `const __value = await (async () => (${script.read}))();\n` +
        `console.log(${JSON.stringify(RESULT)} + JSON.stringify({ peak: ${
          rssExpression("VmHWM")
        }, value: __value }));\n` +
        `Deno.exit(0);\n`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", `--config=${join(REPO, "deno.json")}`, file],
      cwd: REPO,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    return await watch(child, capMb);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function rssExpression(field: string): string {
  return `Number(/${field}:\\s+(\\d+)/.exec(Deno.readTextFileSync("/proc/self/status"))[1]) / 1024`;
}

async function watch(
  child: Deno.ChildProcess,
  capMb: number,
): Promise<CappedRun> {
  let baselineMb = Number.NaN;
  let watchedPeak = 0;
  let killed = false;
  let out = "";
  const stderr = new Response(child.stderr).text();
  const reading = (async () => {
    for await (
      const text of child.stdout.pipeThrough(new TextDecoderStream())
    ) {
      out += text;
      const mark = new RegExp(`${MARK}([\\d.]+)`).exec(out);
      if (mark && Number.isNaN(baselineMb)) baselineMb = Number(mark[1]);
    }
  })();
  // Deno reads /proc only with --allow-all, which the test task does not
  // give: a shell prints the child's resident kilobytes every 10 ms.
  const monitor = new Deno.Command("sh", {
    args: [
      "-c",
      `while kill -0 ${child.pid} 2>/dev/null; do grep VmRSS /proc/${child.pid}/status; sleep 0.01; done`,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const watching = (async () => {
    for await (
      const text of monitor.stdout.pipeThrough(new TextDecoderStream())
    ) {
      for (const [, kb] of text.matchAll(/VmRSS:\s+(\d+)/g)) {
        const rss = Number(kb) / 1024;
        watchedPeak = Math.max(watchedPeak, rss);
        if (!Number.isNaN(baselineMb) && rss - baselineMb > capMb && !killed) {
          killed = true;
          child.kill("SIGKILL");
        }
      }
    }
  })();
  try {
    const { code } = await child.status;
    await reading;
    const line = out.split("\n").find((l) => l.startsWith(RESULT));
    const reported = line ? JSON.parse(line.slice(RESULT.length)) : undefined;
    return {
      code,
      killed,
      baselineMb,
      peakMb: reported?.peak ?? watchedPeak,
      result: reported?.value,
      stderr: await stderr,
    };
  } finally {
    await monitor.status;
    await watching;
  }
}

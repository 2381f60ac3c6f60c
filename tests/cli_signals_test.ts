import { deepStrictEqual, equal, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type EmulatorFaults, startEmulator } from "../emulator.ts";
import { bounded, filesBelow, patterned, until } from "./support.ts";
import { interruptedGetLeft } from "./interrupted_get.ts";
import { INTERRUPTED, stopSignal } from "../src/cli/signals.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO, "cli.ts");
const PARTIAL = ".repo-fs-partial-";
/** Longest time from a stop signal to the command's exit. */
const EXIT_WITHIN_MS = 2000;
const decoder = new TextDecoder();

/** The command line as a child process, killed and awaited on dispose. */
function spawnCli(args: string[]): {
  child: Deno.ChildProcess;
  output(): Promise<Deno.CommandOutput>;
} & AsyncDisposable {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      CLI,
      ...args,
    ],
    cwd: REPO,
    env: { REPO_API_TOKEN: "", NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output: Promise<Deno.CommandOutput> | undefined;
  const collect = () => output ??= child.output();
  return {
    child,
    output: collect,
    async [Symbol.asyncDispose]() {
      try {
        child.kill("SIGKILL");
      } catch {
        // It has exited already.
      }
      await collect();
    },
  };
}

/**
 * Whether the partial file of `name` below `out` (not its record or lock)
 * has bytes in it: the largest file of a scenario, still in flight when the
 * signal comes however loaded the machine (a smaller one may finish first).
 */
async function bodyArriving(out: string, name: string): Promise<boolean> {
  for (const path of await filesBelow(out)) {
    if (!path.includes(`.${name}.repo-fs-partial-`)) continue;
    if (!/\.repo-fs-partial-(resume|[0-9a-f]{16})$/.test(path)) continue;
    const stat = await Deno.stat(join(out, path)).catch(() => undefined);
    if (stat !== undefined && stat.size > 0) return true;
  }
  return false;
}

/** Every file under its real name below `out` holds the dataset's bytes. */
async function assertOnlyComplete(
  out: string,
  files: Record<string, Uint8Array>,
): Promise<string[]> {
  const all = await filesBelow(out);
  deepStrictEqual(all.filter((path) => path.includes(PARTIAL)), []);
  for (const path of all) {
    deepStrictEqual(await Deno.readFile(join(out, path)), files[path], path);
  }
  return all;
}

const SCENARIOS: {
  name: string;
  files: () => Record<string, Uint8Array>;
  faults: Partial<EmulatorFaults>;
}[] = [
  {
    name: "a large download in flight",
    files: () => ({
      "big/64MiB.bin": patterned(64 * 1024 * 1024, 1),
      "small/a.txt": patterned(1000, 2),
      "small/b.txt": patterned(3000, 3),
    }),
    faults: {
      rules: [{
        route: "content",
        trickle: { bytes: 64 * 1024, everyMs: 10 },
        times: Infinity,
      }],
    },
  },
  {
    name: "slow downloads",
    files: () => ({
      "slow/a.bin": patterned(2000, 4),
      "slow/b.bin": patterned(3000, 5),
      "slow/c.bin": patterned(500, 6),
    }),
    faults: {
      rules: [{
        route: "content",
        trickle: { bytes: 4, everyMs: 50 },
        times: Infinity,
      }],
    },
  },
  {
    name: "downloads whose bodies stall halfway",
    files: () => ({
      "stalled/a.bin": patterned(1024 * 1024, 8),
      "stalled/b.bin": patterned(4096, 9),
    }),
    faults: {
      rules: [{ route: "content", stallAfter: "half", times: 1000 }],
    },
  },
];

for (const scenario of SCENARIOS) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.test({
      name:
        `get stopped by ${signal} during ${scenario.name}: exit 130 within 2 s, only hidden kept partials left, --resume completes`,
      ignore: Deno.build.os === "windows",
      fn: async () => {
        const files = scenario.files();
        await using emu = await startEmulator({
          files,
          faults: scenario.faults,
        });
        const tmp = await Deno.makeTempDir();
        try {
          const out = join(tmp, "out");
          const target = ["--host", emu.host, "--pid", emu.pid];
          {
            await using cli = spawnCli([
              ...target,
              "get",
              "**",
              "--out",
              out,
            ]);
            const largest = Object.entries(files)
              .sort(([, a], [, b]) => b.length - a.length)[0][0];
            await until(
              () => bodyArriving(out, largest.split("/").at(-1)!),
              "the largest file's body arriving",
            );
            const sent = performance.now();
            cli.child.kill(signal);
            const { code, stdout, stderr } = await cli.output();
            const elapsed = performance.now() - sent;
            const errors = decoder.decode(stderr);
            equal(code, 130, errors);
            ok(
              elapsed <= EXIT_WITHIN_MS,
              `exited ${Math.round(elapsed)} ms after ${signal}`,
            );
            equal(decoder.decode(stdout), "");
            equal(errors.trimEnd().split("\n").length, 1, errors);
            const { kept } = await interruptedGetLeft(out, files, errors);
            ok(kept.length > 0, "the bytes arriving were kept");
          }
          emu.faults.rules = [];
          {
            await using cli = spawnCli([
              ...target,
              "get",
              "**",
              "--out",
              out,
              "--resume",
            ]);
            const { code, stderr } = await cli.output();
            equal(code, 0, decoder.decode(stderr));
          }
          deepStrictEqual(
            await assertOnlyComplete(out, files),
            Object.keys(files).sort(),
          );
        } finally {
          await Deno.remove(tmp, { recursive: true });
        }
      },
    });
  }
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test({
    name: `cat stopped by ${signal} exits 130 within 2 s`,
    ignore: Deno.build.os === "windows",
    fn: async () => {
      const content = patterned(10_000, 7);
      await using emu = await startEmulator({
        files: { "slow.bin": content },
        faults: {
          rules: [{
            route: "content",
            trickle: { bytes: 4, everyMs: 50 },
            times: Infinity,
          }],
        },
      });
      for (const range of [[], ["--start", "10", "--end", "9000"]]) {
        emu.resetCounters();
        await using cli = spawnCli([
          "--host",
          emu.host,
          "--pid",
          emu.pid,
          "cat",
          "slow.bin",
          ...range,
        ]);
        await until(() => emu.counters.storeGets > 0, "a store GET");
        const sent = performance.now();
        cli.child.kill(signal);
        const { code, stderr } = await cli.output();
        const elapsed = performance.now() - sent;
        equal(code, 130, decoder.decode(stderr));
        ok(
          elapsed <= EXIT_WITHIN_MS,
          `exited ${Math.round(elapsed)} ms after ${signal}`,
        );
        equal(decoder.decode(stderr), "repo-fs: interrupted\n");
      }
    },
  });
}

/** Whether a thread of process `pid` waits to write to a full pipe (Linux). */
async function writingToFullPipe(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", `cat /proc/${pid}/task/*/wchan`],
    stderr: "null",
  }).output();
  return decoder.decode(stdout).includes("pipe_write");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.test({
    name:
      `cat stopped by ${signal} while its stdout's reader has stopped reading exits 130`,
    ignore: Deno.build.os !== "linux",
    fn: async () => {
      await using emu = await startEmulator({
        files: { "big.bin": patterned(4 * 1024 * 1024, 5) },
      });
      await using cli = spawnCli([
        "--host",
        emu.host,
        "--pid",
        emu.pid,
        "cat",
        "big.bin",
      ]);
      const reader = cli.child.stdout.getReader();
      await reader.read(); // writing has begun, so the stop handler is in place
      await until(
        () => writingToFullPipe(cli.child.pid),
        "a write waiting for a reader that reads no more",
      );
      cli.child.kill(signal);
      const { code } = await bounded(cli.child.status, `cat after ${signal}`);
      reader.releaseLock();
      const { stderr } = await cli.output();
      equal(code, 130, decoder.decode(stderr));
      equal(decoder.decode(stderr), "repo-fs: interrupted\n");
    },
  });
}

Deno.test({
  name:
    "a stdout closed by its reader ends get's report, not its status; help into it exits 0 without a trace",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await using emu = await startEmulator({
      files: {
        "good.txt": "good",
        "bad.txt": { content: "bad", md5: "0".repeat(32) },
      },
    });
    const tmp = await Deno.makeTempDir();
    try {
      const target = ["--host", emu.host, "--pid", emu.pid];
      for (
        const [args, status] of [
          [[...target, "get", "**", "--out", join(tmp, "out")], 1],
          [[...target, "--json", "get", "**", "--out", join(tmp, "json")], 1],
          [[...target, "get", "**", "--dry-run", "missing.txt"], 1],
          [["--help"], 0],
          [["get", "--help"], 0],
        ] as const
      ) {
        await using cli = spawnCli([...args]);
        await cli.child.stdout.cancel(); // closed before anything is printed
        const { code, stderr } = await cli.output();
        const errors = decoder.decode(stderr);
        equal(code, status, `${args.join(" ")}: ${errors}`);
        ok(!errors.includes("    at "), errors);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  },
});

Deno.test("exit status 130 after a stop signal", () => {
  strictEqual(INTERRUPTED, 130);
});

Deno.test("a stop signal aborts until disposed", () => {
  using stop = stopSignal();
  strictEqual(stop.signal.aborted, false); // until Ctrl-C or SIGTERM
});

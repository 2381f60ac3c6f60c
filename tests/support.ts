import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { SHARD_VARIABLES } from "../src/fleet/shards.ts";
import type { Logger } from "../mod.ts";

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): Logger & {
  lines: { level: "debug" | "info" | "warn"; msg: string }[];
} {
  const lines: { level: "debug" | "info" | "warn"; msg: string }[] = [];
  return {
    lines,
    debug: (msg) => lines.push({ level: "debug", msg }),
    info: (msg) => lines.push({ level: "info", msg }),
    warn: (msg) => lines.push({ level: "warn", msg }),
  };
}

/**
 * Every way an error is shown: message, `String`, JSON, stack, and what
 * `console.error` prints (fields and causes, however deep).
 */
export function shownForms(error: unknown): string[] {
  const e = error as Error;
  return [
    e.message,
    String(e),
    JSON.stringify(e),
    e.stack ?? "",
    Deno.inspect(e, { depth: Infinity }),
  ];
}

/**
 * Runs `body` with the address of a server that is not the repository, on
 * loopback, answering with `handler`: for what the emulator never sends.
 */
export async function withStranger(
  handler: (request: Request) => Response | Promise<Response>,
  body: (host: string) => Promise<void>,
): Promise<void> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    handler,
  );
  try {
    await body(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** `length` bytes that differ from file to file (`seed`) and along the file. */
export function patterned(length: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    bytes[i] = (i * 31 + seed * 17 + (i >> 8)) & 255;
  }
  return bytes;
}

/** Longer than any read of a test may take: one still running then has hung. */
const HANG_MS = 45_000;

/** `promise`, or a failure naming `what` when it takes longer than {@linkcode HANG_MS}: it hung. */
export async function bounded<T>(
  promise: Promise<T>,
  what: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} still running after ${HANG_MS} ms`)),
      HANG_MS,
    );
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Resolves once `check()` holds, checking every 10 ms; fails naming `what`
 * when it does not hold within `boundMs`.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  boundMs = HANG_MS,
): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!await check()) {
    if (Date.now() > deadline) {
      throw new Error(`never within ${boundMs} ms: ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The MD5 of `text`, as listings give it. */
export function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

/**
 * Every file below `dir` (symlinks left out), as relative paths with `/`,
 * sorted; `[]` when `dir` does not exist.
 */
export async function filesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const full = join(at, entry.name);
      if (entry.isSymlink) continue;
      if (entry.isDirectory) await walk(full);
      else found.push(relative(dir, full).replaceAll("\\", "/"));
    }
  };
  await walk(dir).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return found.sort();
}

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO, "cli.ts");
/** The permissions the README gives the command line. */
const CLI_PERMISSIONS = [
  "--no-prompt",
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
];
const decoder = new TextDecoder();

/**
 * The command line as a process of its own, run from `cwd` (the repository
 * root by default). What would change what it does from the test runner's
 * environment (the token, the coordinator, job-array variables) is blank
 * unless `env` sets it.
 */
export function cliCommand(
  args: string[],
  env: Record<string, string> = {},
  io: "piped" | "null" = "piped",
  cwd = REPO,
): Deno.Command {
  const blank = Object.fromEntries(SHARD_VARIABLES.map((name) => [name, ""]));
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...CLI_PERMISSIONS, CLI, ...args],
    cwd,
    env: {
      REPO_API_TOKEN: "",
      REPO_FS_TOKEN: "",
      REPO_FS_TOKEN_HEADER: "",
      REPO_FS_RESOLVER: "",
      REPO_FS_COORDINATOR: "",
      NO_COLOR: "1",
      ...blank,
      ...env,
    },
    stdin: "null",
    stdout: io,
    stderr: io,
  });
}

/** What a finished command-line process gave: its exit code, its output decoded, and its stdout's bytes. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  bytes: Uint8Array;
}

/** Waits for `child` (started with piped output) to end. */
export async function finished(child: Deno.ChildProcess): Promise<CliRun> {
  const { code, stdout, stderr } = await child.output();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
    bytes: stdout,
  };
}

/** Runs the command line with `args` to its end. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return finished(cliCommand(args, env).spawn());
}

/**
 * `repo-fs emulate ARGS` running: what it printed up to "Stop with
 * Ctrl-C.", and `stop()`, which ends it with SIGTERM and gives its exit
 * code and everything it wrote on stderr.
 */
export async function emulateCli(args: string[]) {
  const child = cliCommand(["emulate", ...args]).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("Stop with Ctrl-C.\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return {
    text,
    async stop(): Promise<{ code: number; stderr: string }> {
      child.kill("SIGTERM");
      const [status, said] = await Promise.all([
        child.status,
        stderr,
        reader.cancel(),
      ]);
      return { code: status.code, stderr: said };
    },
  };
}

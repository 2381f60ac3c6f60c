// Downloads that leave nothing: missing folders are made, a folder that
// cannot be written or a missing permission is one error before any byte is
// fetched (naming the flag), and a failed or aborted download removes its
// partial file, or says which it could not remove.
import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { removedAfter } from "../src/download/file_download.ts";
import { filesBelow, patterned, runCli } from "./support.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const decoder = new TextDecoder();

Deno.test("downloadToFile into a folder that does not exist makes it, through RepoFs and a pool", async () => {
  const content = patterned(100_000, 1);
  await using emu = await startEmulator({ files: { "a.bin": content } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const tmp = await Deno.makeTempDir();
  try {
    await fs.downloadToFile("a.bin", join(tmp, "x/y/a.bin"));
    await pool.downloadToFile("a.bin", join(tmp, "p/q/a.bin"));
    await fs.downloadToFile("a.bin", join(tmp, "r/a.bin"), { resume: true });
    deepStrictEqual((await filesBelow(tmp)).sort(), [
      "p/q/a.bin",
      "r/a.bin",
      "x/y/a.bin",
    ]);
    for (const path of await filesBelow(tmp)) {
      deepStrictEqual(await Deno.readFile(join(tmp, path)), content);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("downloadToFile in a script with --allow-write but no --allow-read names the flag first, fetches nothing, leaves nothing", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": patterned(85_000, 2) },
  });
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  try {
    const out = join(tmp, "out");
    await Deno.mkdir(out);
    const script = join(tmp, "script.ts");
    await Deno.writeTextFile(
      script,
      `import { RepoFs, RepoFsPool } from ${
        JSON.stringify(new URL("mod.ts", `file://${REPO}/`).href)
      };
const fs = new RepoFs({ host: ${JSON.stringify(emu.host)}, pid: ${
        JSON.stringify(emu.pid)
      } });
const messages = [];
for (const resume of [false, true]) {
  await fs.downloadToFile("a.bin", ${
        JSON.stringify(join(out, "a.bin"))
      }, { resume }).catch((e) => messages.push(e.message));
}
await using pool = new RepoFsPool(fs, { workers: 1 });
await pool.downloadToFile("a.bin", ${
        JSON.stringify(join(out, "b.bin"))
      }).catch((e) => messages.push(e.message));
console.log(JSON.stringify(messages));`,
    );
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-net=127.0.0.1",
        `--allow-write=${out}`,
        script,
      ],
      stdin: "null",
      env: { NO_COLOR: "1" },
    }).output();
    equal(code, 0, decoder.decode(stderr));
    const messages: string[] = JSON.parse(decoder.decode(stdout));
    equal(messages.length, 3);
    for (const message of messages) {
      ok(message.startsWith(`--allow-read=${out} needed`), message);
    }
    equal(emu.counters.storeGets, 0);
    deepStrictEqual(await filesBelow(out), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("an aborted or failed download leaves no partial or temporary file in the folder", async () => {
  const content = patterned(4 * 1024 * 1024, 3);
  await using emu = await startEmulator({
    files: {
      "big.bin": content,
      "bad.bin": { content: "not it", md5: "0".repeat(32) },
    },
    faults: {
      rules: [{
        route: "content",
        trickle: { bytes: 64 * 1024, everyMs: 5 },
        times: Infinity,
      }],
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const tmp = await Deno.makeTempDir();
  try {
    for (const source of [fs, pool]) {
      const controller = new AbortController();
      let written = 0;
      const onBytes = (n: number) => {
        written += n;
        if (written >= 1024 * 1024) controller.abort(new Error("stop here"));
      };
      await rejects(
        source.downloadToFile("big.bin", join(tmp, "sub/big.bin"), {
          signal: controller.signal,
          onBytes,
        }),
        /stop here/,
      );
      ok(written >= 1024 * 1024);
      await rejects(
        source.downloadToFile("bad.bin", join(tmp, "sub/bad.bin")),
        /MD5 mismatch/,
      );
    }
    deepStrictEqual(await filesBelow(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a partial file that cannot be removed is named in the error, with the failure it followed", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const stuck = join(tmp, ".a.bin.repo-fs-partial-0123456789abcdef");
    await Deno.mkdir(join(stuck, "inside"), { recursive: true });
    const failure = new Error("short download: 5 of 9 listed bytes");
    const error = await removedAfter(failure, stuck) as Error;
    match(
      error.message,
      /^short download: 5 of 9 listed bytes; and the partial file .*\.a\.bin\.repo-fs-partial-0123456789abcdef could not be removed: /,
    );
    equal(error.cause, failure);
    const gone = join(tmp, "gone");
    equal(await removedAfter(failure, gone), failure);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("get -o into a folder that cannot be written: one line, exit 1, no request to the store", async () => {
  await using emu = await startEmulator({ sample: true });
  const tmp = await Deno.makeTempDir();
  try {
    // Root writes into a folder whatever its mode: /proc takes no file from anyone.
    const id = await new Deno.Command("id", { args: ["-u"] }).output();
    const root = new TextDecoder().decode(id.stdout).trim() === "0";
    const out = root ? "/proc" : join(tmp, "ro");
    if (!root) {
      await Deno.mkdir(out);
      await Deno.chmod(out, 0o555);
    }
    const run = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "**",
      "-o",
      out,
    ]);
    equal(run.code, 1, run.stderr);
    const lines = run.stderr.trimEnd().split("\n");
    equal(lines.length, 1, run.stderr);
    match(lines[0], /^repo-fs: the output folder .* cannot be made or used/);
    equal(emu.counters.storeGets, 0);
    equal(emu.counters.storeRequests, 0);
    if (!root) {
      await Deno.chmod(out, 0o755);
      deepStrictEqual(await filesBelow(out), []);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("get -o without --allow-write for it: the flag is the first thing the one line says", async () => {
  await using emu = await startEmulator({ sample: true });
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  try {
    const out = join(tmp, "out");
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-net",
        "--allow-read",
        "--allow-env",
        `--allow-write=${join(tmp, "elsewhere")}`,
        join(REPO, "cli.ts"),
        "--host",
        emu.host,
        "--pid",
        emu.pid,
        "get",
        "**",
        "-o",
        out,
      ],
      env: { NO_COLOR: "1", REPO_API_TOKEN: "" },
      stdin: "null",
    }).output();
    const text = decoder.decode(stderr);
    equal(code, 1, text);
    deepStrictEqual(text.trimEnd().split("\n").length, 1, text);
    ok(text.startsWith(`repo-fs: --allow-write=${out} needed`), text);
    equal(emu.counters.storeGets, 0);
    deepStrictEqual(await filesBelow(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import type { EmulatorOptions } from "../emulator.ts";
import { temporaryName } from "../src/download/file_download.ts";
import {
  cliCommand,
  type CliRun,
  filesBelow,
  runCli,
  until,
} from "./support.ts";
import { interruptedGetLeft } from "./interrupted_get.ts";

const PARTIAL = ".repo-fs-partial-";
const decoder = new TextDecoder();

/** An emulator, a temp dir, and `cli(...)` with --host and --pid filled in. */
async function setup(options: EmulatorOptions = {}) {
  const emu = await startEmulator(options);
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  const target = ["--host", emu.host, "--pid", emu.pid];
  return {
    emu,
    tmp,
    target,
    cli: (args: string[], env?: Record<string, string>) =>
      runCli([...target, ...args], env),
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

function json<T = unknown>(result: CliRun): T {
  equal(result.code, 0, `exit ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

function bytesOf(n: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

const SAMPLE: Record<string, string | Uint8Array> = {
  "README.md": "# sample\n",
  "data/table.csv": "a,b\n1,2\n",
  "data/deep/er/blob.bin": bytesOf(70_000, 1),
  "data/empty.txt": "",
  "my files/one two.txt": "spaced name\n",
  ".hidden/dot": "dot",
};

Deno.test("ls, tree, find, glob and info print lines and parse back as --json", async () => {
  await using t = await setup({
    files: SAMPLE,
    versions: { "1.0": { "old/only.txt": "from version 1.0" } },
  });
  const [
    ls,
    lsJson,
    lsFile,
    tree,
    treeJson,
    find,
    findJson,
    glob,
    info,
    infoJson,
  ] = await Promise.all([
    t.cli(["ls"]),
    t.cli(["ls", "data", "--json"]),
    t.cli(["--json", "ls", "README.md"]),
    t.cli(["tree", "data"]),
    t.cli(["tree", "--json", "--maxdepth", "1"]),
    t.cli(["find", "data"]),
    t.cli(["find", "--withdirs", "--maxdepth", "1", "--json"]),
    t.cli(["glob", "**/*.{csv,txt}", "--json"]),
    t.cli(["info", "data/table.csv"]),
    t.cli(["info", "data/deep/er/blob.bin", "--json"]),
  ]);
  equal(ls.code, 0);
  deepStrictEqual(lines(ls.stdout), [
    "     -  .hidden/",
    "   9 B  README.md",
    "     -  data/",
    "     -  my files/",
  ]);
  deepStrictEqual(
    json<{ name: string; type: string }[]>(lsJson).map((e) => [e.name, e.type]),
    [
      ["data/deep", "directory"],
      ["data/empty.txt", "file"],
      ["data/table.csv", "file"],
    ],
  );
  const [readme] = json<{ name: string; size: number; id: number }[]>(lsFile);
  deepStrictEqual([readme.name, readme.size], ["README.md", 9]);
  equal(readme.id, t.emu.fileId("README.md"));
  deepStrictEqual(lines(tree.stdout), [
    "data/",
    "├── deep/",
    "│   └── er/",
    "│       └── blob.bin  (68.4 KiB)",
    "├── empty.txt  (0 B)",
    "└── table.csv  (8 B)",
    "2 directories, 3 files, 68.4 KiB",
  ]);
  const root = json<
    { name: string; children: { name: string; children?: unknown[] }[] }
  >(
    treeJson,
  );
  equal(root.name, "");
  deepStrictEqual(root.children.map((c) => c.name), [
    ".hidden",
    "README.md",
    "data",
    "my files",
  ]);
  ok(root.children.every((c) => c.children === undefined));
  deepStrictEqual(lines(find.stdout), [
    "data/deep/er/blob.bin",
    "data/empty.txt",
    "data/table.csv",
  ]);
  deepStrictEqual(json(findJson), [".hidden", "README.md", "data", "my files"]);
  // No brace expansion in globs: the pattern names a literal "{csv,txt}",
  // which matches nothing (exit 1, one line).
  equal(glob.code, 1);
  equal(glob.stdout, "");
  equal(glob.stderr, 'repo-fs: no file matches "**/*.{csv,txt}"\n');
  equal(info.code, 0);
  ok(info.stdout.includes("name:         data/table.csv\n"));
  ok(info.stdout.includes("size:         8\n"));
  const blob = json<Record<string, unknown>>(infoJson);
  const blobMd5 = createHash("md5").update(SAMPLE["data/deep/er/blob.bin"])
    .digest("hex");
  deepStrictEqual(blob, {
    name: "data/deep/er/blob.bin",
    type: "file",
    size: 70_000,
    id: t.emu.fileId("data/deep/er/blob.bin"),
    contentType: "application/octet-stream",
    md5: blobMd5,
    checksum: { type: "MD5", value: blobMd5 },
  });
  const old = await t.cli(["--dataset-version", "1.0", "find"]);
  equal(old.stdout, "old/only.txt\n");
  const globbed = await t.cli(["glob", "**/*.txt"]);
  deepStrictEqual(lines(globbed.stdout), [
    "data/empty.txt",
    "my files/one two.txt",
  ]);
});

Deno.test("cat streams whole files and reads byte ranges", async () => {
  await using t = await setup({ files: SAMPLE });
  const blob = SAMPLE["data/deep/er/blob.bin"] as Uint8Array;
  const [whole, range, tail, tailEq, empty] = await Promise.all([
    t.cli(["cat", "data/deep/er/blob.bin"]),
    t.cli(["cat", "data/deep/er/blob.bin", "--start", "100", "--end", "300"]),
    t.cli(["cat", "data/deep/er/blob.bin", "--start", "-10"]),
    t.cli(["cat", "data/table.csv", "--start=-4"]),
    t.cli(["cat", "data/empty.txt"]),
  ]);
  equal(whole.code, 0, whole.stderr);
  deepStrictEqual(whole.bytes, blob);
  deepStrictEqual(range.bytes, blob.slice(100, 300));
  deepStrictEqual(tail.bytes, blob.slice(-10));
  equal(tailEq.stdout, "1,2\n");
  equal(empty.code, 0);
  equal(empty.bytes.byteLength, 0);
});

Deno.test("datasets lists the collection's items with the value for --pid", async () => {
  await using t = await setup({ alias: "science", files: { "a.txt": "a" } });
  const text = await runCli(["--host", t.emu.host, "datasets", "science"]);
  equal(text.code, 0, text.stderr);
  equal(
    text.stdout,
    `${t.emu.pid}  dataset  https://doi.org/10.5072/FK2/EMULATED\n`,
  );
  const items = json<{ identifier: string }[]>(
    await runCli(["--host", t.emu.host, "--json", "datasets", "science"]),
  );
  deepStrictEqual(items.map((i) => i.identifier), ["FK2/EMULATED"]);
  const missing = await runCli(["--host", t.emu.host, "datasets", "nope"]);
  equal(missing.code, 1);
  ok(missing.stderr.includes("Can't find dataverse"), missing.stderr);
});

Deno.test("exit status 2 for bad usage, 1 for failures with one line, 0 for help", async () => {
  await using t = await setup({ files: SAMPLE });
  const usage = await Promise.all([
    runCli([]),
    runCli(["frobnicate"]),
    t.cli(["ls", "--frob"]),
    t.cli(["info"]),
    t.cli(["glob", "a", "b"]),
    t.cli(["find", "--maxdepth", "1.5"]),
    t.cli(["find", "--maxdepth", "0"]),
    t.cli(["cat", "README.md", "--start", "x"]),
    t.cli(["get", "**"]),
    t.cli(["--head-concurrency", "many", "ls"]),
    t.cli(["--timeout-ms", "0", "ls"]),
    runCli(["--pid", t.emu.pid, "ls"]),
    runCli(["--host", t.emu.host, "ls"]),
    runCli(["--host", t.emu.host, "--pid", "not-a-doi", "ls"]),
    runCli(["emulate", "dir", "--port", "70000"]),
  ]);
  for (const result of usage) {
    equal(result.code, 2, result.stderr);
    equal(lines(result.stderr).length, 1, result.stderr);
    ok(result.stderr.startsWith("repo-fs: "), result.stderr);
    ok(result.stderr.includes("--help"), result.stderr);
    equal(result.stdout, "");
  }
  ok(usage[1].stderr.includes('unknown command "frobnicate"'));
  ok(usage[3].stderr.includes("missing argument PATH"));
  ok(usage[5].stderr.includes("--maxdepth must be an integer"));
  ok(usage[8].stderr.includes("missing --out DIR"));
  ok(usage[10].stderr.includes("--timeout-ms must be >= 1"), usage[10].stderr);

  const failures = await Promise.all([
    t.cli(["ls", "missing"]),
    t.cli(["cat", "data"]),
    t.cli(["info", "a/../b"]),
    t.cli(["--token-file", join(t.tmp, "no-such-file"), "ls"]),
    runCli(["--host", "http://127.0.0.1:9", "--pid", t.emu.pid, "ls"]),
  ]);
  for (const result of failures) {
    equal(result.code, 1, result.stderr);
    equal(lines(result.stderr).length, 1, result.stderr);
    ok(!result.stderr.includes("    at "), result.stderr);
  }
  ok(
    failures[0].stderr.includes(
      'No such file or directory in the dataset: "missing"',
    ),
  );
  ok(failures[1].stderr.includes("Is a directory"));
  ok(
    failures[3].stderr.includes(
      `the token file ${join(t.tmp, "no-such-file")} cannot be read`,
    ),
    failures[3].stderr,
  );
  const notAFolder = join(t.tmp, "a-file");
  await Deno.writeTextFile(notAFolder, "");
  const out = await t.cli(["get", "**", "--out", notAFolder]);
  equal(out.code, 1, out.stderr);
  ok(
    out.stderr.startsWith(
      `repo-fs: the output folder ${notAFolder} cannot be made or used: `,
    ),
    out.stderr,
  );
  const verbose = await t.cli(["--verbose", "ls", "missing"]);
  equal(verbose.code, 1);
  ok(verbose.stderr.includes("    at "), "a stack trace with --verbose");
  ok(verbose.stderr.includes("info: Routing table"), "logger lines");

  const help = await Promise.all([
    runCli(["--help"]),
    runCli(["-h"]),
    runCli(["get", "--help"]),
    runCli(["help", "cat"]),
    runCli(["--", "--help"]), // as `deno task cli -- --help` passes it
  ]);
  for (const result of help) equal(result.code, 0);
  ok(help[0].stdout.includes("Commands:"));
  for (
    const name of [
      "ls",
      "tree",
      "find",
      "glob",
      "info",
      "cat",
      "get",
      "datasets",
      "emulate",
    ]
  ) {
    ok(help[0].stdout.includes(`\n  ${name} `), name);
  }
  equal(help[0].stdout, help[1].stdout);
  equal(help[0].stdout, help[4].stdout);
  ok(help[0].stdout.includes("--timeout-ms N"));
  ok(help[0].stdout.includes("--retries N"));
  ok(help[2].stdout.includes("--resume"));
  ok(help[2].stdout.includes("--timeout-ms N"));
  ok(help[3].stdout.startsWith("Usage: repo-fs [global options] cat PATH"));
});

Deno.test("get downloads a whole dataset byte for byte, --dry-run writes nothing", async () => {
  await using t = await setup({ files: SAMPLE });
  const out = join(t.tmp, "out");
  const dry = json<
    { selected: number; bytes: number; files: { path: string }[] }
  >(
    await t.cli(["get", "**", "--dry-run", "--json", "--out", out]),
  );
  equal(dry.selected, 6);
  equal(dry.bytes, 9 + 8 + 70_000 + 0 + 12 + 3);
  deepStrictEqual(dry.files.map((f) => f.path), Object.keys(SAMPLE).sort());
  equal(await Deno.stat(out).catch(() => null), null);
  const dryText = await t.cli(["get", "data", "--dry-run"]);
  ok(dryText.stdout.endsWith("3 files, 68.4 KiB; nothing written (dry run)\n"));

  t.emu.resetCounters();
  const summary = json<Record<string, unknown>>(
    await t.cli([
      "get",
      "**",
      "--out",
      out,
      "--json",
      "--parallel",
      "4",
      "--head-concurrency",
      "1",
    ]),
  );
  equal(t.emu.counters.heads, 5, "one HEAD per file but the empty one");
  equal(t.emu.counters.peakConcurrentHeads, 1);
  deepStrictEqual(
    { ...summary, seconds: 0 },
    {
      out,
      selected: 6,
      downloaded: 6,
      skipped: 0,
      failed: 0,
      bytes: dry.bytes,
      verified: { md5: 6 },
      unverified: 0,
      restricted: 0,
      seconds: 0,
      interrupted: false,
      failures: [],
      unmatched: [],
      restrictedFiles: [],
    },
  );
  deepStrictEqual(await filesBelow(out), Object.keys(SAMPLE).sort());
  for (const [path, content] of Object.entries(SAMPLE)) {
    const expected = typeof content === "string"
      ? new TextEncoder().encode(content)
      : content;
    deepStrictEqual(await Deno.readFile(join(out, path)), expected, path);
  }

  const some = join(t.tmp, "some");
  const text = await t.cli(["get", "data/*.csv", "my files", "--out", some]);
  equal(text.code, 0, text.stderr);
  ok(
    text.stdout.startsWith("Downloaded 2 of 2 files (20 B) into "),
    text.stdout,
  );
  deepStrictEqual(await filesBelow(some), [
    "data/table.csv",
    "my files/one two.txt",
  ]);
  const none = await t.cli(["get", "*.nc", "--out", some]);
  equal(none.code, 1);
  ok(none.stderr.includes('no file matches "*.nc"'), none.stderr);
});

Deno.test("--timeout-ms bounds how long a request may go without an answer", async () => {
  await using t = await setup({ files: SAMPLE, faults: { latencyMs: 3000 } });
  const result = await t.cli(["--timeout-ms", "200", "ls"]);
  equal(result.code, 1, result.stderr);
  equal(lines(result.stderr).length, 1, result.stderr);
  ok(result.stderr.includes("200 ms"), result.stderr);
});

Deno.test("a --timeout-ms longer than a timer can wait (24.8 days) is waited out quietly", async () => {
  await using t = await setup({ files: SAMPLE, faults: { latencyMs: 300 } });
  const result = await t.cli(["--timeout-ms", "99999999999", "ls"]);
  equal(result.code, 0, result.stderr);
  equal(result.stderr, "", "no TimeoutOverflowWarning, one per millisecond");
});

/** Files big and slow enough to interrupt a download in the middle. */
function slowDataset(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 16; i++) {
    files[`part/${String(i).padStart(2, "0")}.bin`] = bytesOf(200_000, i + 7);
  }
  return files;
}

/** Waits until `count` complete-named files are below `dir`. */
function waitForFiles(dir: string, count: number): Promise<void> {
  return until(
    async () =>
      (await filesBelow(dir)).filter((path) => !path.includes(PARTIAL))
        .length >= count,
    `${count} files in ${dir}`,
    15_000,
  );
}

/** Every complete-named file equals its content; returns their paths. */
async function checkComplete(
  out: string,
  files: Record<string, Uint8Array>,
): Promise<string[]> {
  const complete = (await filesBelow(out)).filter((p) => !p.includes(PARTIAL));
  for (const path of complete) {
    deepStrictEqual(await Deno.readFile(join(out, path)), files[path], path);
  }
  return complete;
}

Deno.test("an interrupted get keeps the bytes in flight only under hidden partial names, and --resume goes on from them", async () => {
  const files = slowDataset();
  const trickle = { bytes: 16 * 1024, everyMs: 10 };
  await using t = await setup({
    files,
    faults: {
      // Three files arrive whole; every later body stalls halfway, so files
      // are in flight when the signal comes however slow the machine.
      rules: [
        { route: "content", trickle, times: 3 },
        { route: "content", trickle, stallAfter: "half", times: Infinity },
      ],
    },
  });
  const out = join(t.tmp, "out");
  const child = cliCommand([
    ...t.target,
    "get",
    "part",
    "--out",
    out,
    "--parallel",
    "2",
  ]).spawn();
  await waitForFiles(out, 3);
  await until(async () => (await keptSizes(out)).some((n) => n > 0), "bytes");
  child.kill("SIGINT");
  const output = await child.output();
  const stderr = decoder.decode(output.stderr);
  equal(output.code, 130, stderr);
  equal(decoder.decode(output.stdout), "", "no summary");
  equal(lines(stderr).length, 1, stderr);
  const { complete, kept } = await interruptedGetLeft(out, files, stderr);
  ok(complete.length >= 3 && complete.length < 16, `${complete.length} done`);
  ok(kept.length > 0, "the files in flight were partly kept");
  for (const path of kept) {
    const name = path.replace(/\/\.([^/]+)\.repo-fs-partial-resume$/, "/$1");
    ok(!complete.includes(name), `${name} is not under its final name`);
  }
  const keptBytes = (await keptSizes(out)).reduce((a, b) => a + b, 0);
  ok(keptBytes > 0);

  t.emu.faults.rules = [];
  t.emu.resetCounters();
  const resumed = json<{ downloaded: number; skipped: number }>(
    await t.cli(["get", "**", "--out", out, "--resume", "--json"]),
  );
  deepStrictEqual(resumed, {
    ...resumed,
    downloaded: 16 - complete.length,
    skipped: complete.length,
  });
  equal(t.emu.counters.storeGets, 16 - complete.length);
  // Only what was missing: the kept bytes are not fetched again.
  equal(
    t.emu.counters.storeBytes,
    200_000 * (16 - complete.length) - keptBytes,
  );
  deepStrictEqual(await checkComplete(out, files), Object.keys(files).sort());
  deepStrictEqual(await filesBelow(out), Object.keys(files).sort());
});

/** The sizes of the kept partial files below `out`. */
async function keptSizes(out: string): Promise<number[]> {
  const kept = (await filesBelow(out)).filter((p) => p.endsWith("-resume"));
  return await Promise.all(
    kept.map(async (p) => (await Deno.stat(join(out, p))).size),
  );
}

Deno.test("a get killed outright leaves only hidden partial files; --resume completes", async () => {
  const files = slowDataset();
  await using t = await setup({ files, faults: { latencyMs: 120 } });
  const out = join(t.tmp, "out");
  const child = cliCommand(
    [...t.target, "get", "**", "--out", out, "--parallel", "3"],
    {},
    "null",
  ).spawn();
  await waitForFiles(out, 2);
  child.kill("SIGKILL");
  await child.status;
  const done = await checkComplete(out, files);
  for (const path of await filesBelow(out)) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    ok(
      done.includes(path) ||
        /^\..*\.repo-fs-partial-resume(\.json|\.lock)?$/.test(name),
      path,
    );
  }
  t.emu.faults.latencyMs = 0;
  const resumed = await t.cli(["get", "**", "--out", out, "--resume"]);
  equal(resumed.code, 0, resumed.stderr);
  deepStrictEqual(await checkComplete(out, files), Object.keys(files).sort());
});

Deno.test("get refuses hostile listing paths and writes nothing outside --out", async () => {
  await using t = await setup({
    files: { "ok.txt": "fine" },
    entries: [
      { directoryLabel: "../../outside", filename: "x", file: "evil 1" },
      { directoryLabel: "a\\b", filename: "c", file: "evil 2" },
      { filename: "C:evil", file: "evil 3" },
      { directoryLabel: "ctl", filename: "bell\u0007", file: "evil 4" },
      { filename: "nul\u0000x", file: "evil 5" },
      { directoryLabel: "link", filename: "z", file: "evil 6" },
      { directoryLabel: "/abs", filename: "y", file: "rooted label" },
      { directoryLabel: "long", filename: "n".repeat(300), file: "evil 7" },
    ],
  });
  // --out is <tmp>/work/out, so "../../outside" would be <tmp>/outside.
  const outside = join(t.tmp, "outside");
  await Deno.mkdir(outside);
  const out = join(t.tmp, "work", "out");
  await Deno.mkdir(out, { recursive: true });
  await Deno.symlink(outside, join(out, "link"));

  const listed = json<string[]>(await t.cli(["find", "--json"]));
  ok(!listed.some((path) => path.includes("..")), "'..' is not in the tree");

  t.emu.resetCounters();
  const result = await t.cli(["get", "**", "--out", out, "--json"]);
  equal(result.code, 1);
  equal(t.emu.counters.storeGets, 1, "only ok.txt is read");
  const summary = JSON.parse(result.stdout) as {
    selected: number;
    downloaded: number;
    failed: number;
    failures: { path: string; error: string; refused: boolean }[];
  };
  equal(summary.selected, 9);
  equal(summary.downloaded, 1);
  deepStrictEqual(
    summary.failures.map((f) => [f.path, f.refused]).sort(),
    [
      ["../../outside/x", true],
      ["/abs/y", true],
      ["C:evil", true],
      ["a\\b/c", true],
      ["ctl/bell\u0007", true],
      ["link/z", true],
      [`long/${"n".repeat(300)}`, true],
      ["nul\u0000x", true],
    ],
  );
  equal(summary.failed, 8);
  const stderr = lines(result.stderr);
  equal(stderr.length, 8, result.stderr);
  ok(result.stderr.includes("it has a name of 300 bytes, longer than"));
  ok(result.stderr.includes('refused "../../outside/x": listing entry'));
  ok(result.stderr.includes('refused "a\\\\b/c": it has a backslash'));
  ok(result.stderr.includes('refused "C:evil": it has a drive letter'));
  ok(result.stderr.includes('refused "/abs/y": listing entry'));
  ok(result.stderr.includes('refused "ctl/bell\\u0007": it has a control'));
  ok(result.stderr.includes('refused "link/z": '));
  ok(!result.stderr.includes("\u0007"), "no raw control character shown");

  deepStrictEqual(await filesBelow(outside), []);
  deepStrictEqual(await filesBelow(t.tmp), ["work/out/ok.txt"]);

  const dry = await t.cli(["get", "**", "--dry-run", "--out", out]);
  equal(dry.code, 1);
  ok(dry.stdout.includes("2 files"), dry.stdout);
});

Deno.test("get refuses a second dataset path that a symlink inside --out makes one file with another", async () => {
  const files = { "real/x": "real's x", "link/x": "link's x" };
  await using t = await setup({ files });
  const out = join(t.tmp, "out");
  await Deno.mkdir(join(out, "real"), { recursive: true });
  await Deno.symlink(join(out, "real"), join(out, "link"));
  for (const again of [[], ["--resume"]]) {
    const result = await t.cli(["get", "**", "--out", out, "--json", ...again]);
    equal(result.code, 1, result.stderr);
    const { failures } = JSON.parse(result.stdout) as {
      failures: { path: string; error: string; refused: boolean }[];
    };
    equal(failures.length, 1, result.stdout);
    const [{ path, error, refused }] = failures;
    const kept = path === "link/x" ? "real/x" : "link/x";
    ok(refused, error);
    ok(error.includes(`the same file as "${kept}"`), error);
    equal(
      await Deno.readTextFile(join(out, "real", "x")),
      files[kept as keyof typeof files],
      "the file holds the path it was written for",
    );
  }
});

Deno.test("a server's words reach the terminal escaped, and the token in none of them, on stderr or in --json", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  const bell = "\x1b]0;pwned\x07\x1b[2J";
  await using t = await setup({
    token,
    files: { "x.bin": { content: "abc", md5: token } },
    entries: [{
      directoryLabel: "..",
      filename: `up${bell}`,
      file: "left out",
    }],
  });
  const env = { REPO_API_TOKEN: token };
  const found = await t.cli(["find", "--verbose"], env);
  equal(found.code, 0, found.stderr);
  ok(found.stderr.includes("\\u001b]0;pwned\\u0007\\u001b[2J"), found.stderr);
  const got = await t.cli(["get", "**", "--out", t.tmp, "--json"], env);
  equal(got.code, 1, got.stderr);
  ok(got.stdout.includes("MD5"), got.stdout);
  for (const text of [found.stderr, got.stdout, got.stderr]) {
    ok(!text.includes("\x1b") && !text.includes("\x07"), text);
    ok(!text.includes(token), text);
  }
});

Deno.test("get reports an MD5 mismatch, a short and a long body, and keeps none; a tabular file may be longer", async () => {
  await using t = await setup({
    files: {
      "x": { content: "abc", md5: "0".repeat(32) },
      "short.bin": { content: "ab", listedSize: 10 },
      "good.txt": "fine",
      "table.tab": {
        content: "name\tvalue\na\t1\n",
        listedSize: 4,
        md5: "1".repeat(32),
        tabular: true,
      },
      "longer.bin": { content: "abcdef", listedSize: 4, md5: null },
    },
  });
  const out = join(t.tmp, "out");
  const result = await t.cli(["get", "**", "--out", out]);
  equal(result.code, 1);
  const errors = lines(result.stderr);
  equal(errors.length, 3, result.stderr);
  ok(
    errors.includes(
      `repo-fs: failed "x": MD5 mismatch: the listing says ${
        "0".repeat(32)
      }, the bytes received have 900150983cd24fb0d6963f7d28e17f72; not kept`,
    ),
    result.stderr,
  );
  // The read itself or the check after it names both sizes.
  ok(
    errors.some((line) =>
      /^repo-fs: failed "short\.bin": .*\b2\b.*\b10\b/.test(line)
    ),
    result.stderr,
  );
  ok(
    errors.some((line) =>
      /^repo-fs: failed "longer\.bin": .*\b6\b.*\b4\b/.test(line)
    ),
    result.stderr,
  );
  ok(result.stdout.includes("3 failed"), result.stdout);
  ok(result.stdout.includes("1 not verifiable"), result.stdout);
  deepStrictEqual(await filesBelow(out), ["good.txt", "table.tab"]);
  equal(await Deno.readTextFile(join(out, "table.tab")), "name\tvalue\na\t1\n");
});

Deno.test("get --tabular original verifies an ingested file's original and a SHA-1 file; a wrong SHA-1 is not kept", async () => {
  const archival = "name\tvalue\na\t1\n";
  const original = "name,value\r\na,1\r\n";
  await using t = await setup({
    files: {
      "survey/t.tab": {
        content: archival,
        listedSize: 8,
        contentType: "text/tab-separated-values",
        tabular: true,
        original,
      },
      "s.bin": { content: "abc", checksumType: "SHA-1" },
      "bad.bin": {
        content: "abc",
        checksumType: "SHA-1",
        checksum: "0".repeat(40),
      },
    },
  });
  type Summary = {
    downloaded: number;
    verified: Record<string, number>;
    unverified: number;
  };
  const out = join(t.tmp, "out");
  const originals = await t.cli([
    "get",
    "survey",
    "s.bin",
    "--tabular",
    "original",
    "--out",
    out,
    "--json",
  ]);
  const summary = json<Summary>(originals);
  deepStrictEqual(
    [summary.downloaded, summary.verified, summary.unverified],
    [2, { md5: 1, sha1: 1 }, 0],
  );
  deepStrictEqual(await filesBelow(out), ["s.bin", "survey/t.csv"]);
  equal(await Deno.readTextFile(join(out, "survey/t.csv")), original);

  const info = await t.cli(["--tabular", "original", "info", "survey/t.csv"]);
  ok(info.stdout.includes("content type: text/csv\n"), info.stdout);
  ok(info.stdout.includes("ingested:     the original upload"), info.stdout);

  const asListed = json<Summary>(
    await t.cli(["get", "survey", "--out", join(t.tmp, "archival"), "--json"]),
  );
  deepStrictEqual([asListed.verified, asListed.unverified], [{}, 1]);
  equal(
    await Deno.readTextFile(join(t.tmp, "archival", "survey/t.tab")),
    archival,
  );

  const bad = await t.cli(["get", "bad.bin", "--out", out]);
  equal(bad.code, 1);
  deepStrictEqual(lines(bad.stderr), [
    `repo-fs: failed "bad.bin": SHA-1 mismatch: the listing says ${
      "0".repeat(40)
    }, the bytes received have a9993e364706816aba3e25717850c26c9cd0d89d; not kept`,
  ]);
  deepStrictEqual(await filesBelow(out), ["s.bin", "survey/t.csv"]);

  const wrong = await t.cli(["--tabular", "both", "ls"]);
  equal(wrong.code, 2, wrong.stderr);
  ok(wrong.stderr.includes('tabular must be "archival" or "original"'));
});

Deno.test("ls, tree and info mark restricted and embargoed files; get without a token skips them and counts them apart", async () => {
  await using t = await setup({
    files: {
      "open.txt": "o",
      "secret.txt": { content: "s", restricted: true },
      "d/later.txt": { content: "l", embargo: "2999-01-01" },
    },
  });
  const [ls, lsJson, tree, info] = await Promise.all([
    t.cli(["ls"]),
    t.cli(["ls", "--json"]),
    t.cli(["tree", "d"]),
    t.cli(["info", "secret.txt"]),
  ]);
  deepStrictEqual(lines(ls.stdout), [
    "     -  d/",
    "   1 B  open.txt",
    "   1 B  secret.txt  (restricted)",
  ]);
  const entries = json<Record<string, unknown>[]>(lsJson);
  equal(entries[2].restricted, true);
  equal(entries[1].restricted, undefined);
  ok(
    tree.stdout.includes("└── later.txt  (1 B, embargoed until 2999-01-01)"),
    tree.stdout,
  );
  ok(info.stdout.includes("access:       restricted\n"), info.stdout);

  t.emu.resetCounters();
  const out = join(t.tmp, "out");
  const get = await t.cli(["get", "**", "--out", out, "--json"]);
  const summary = json<Record<string, unknown>>(get);
  equal(summary.downloaded, 1);
  equal(summary.failed, 0);
  equal(summary.restricted, 2);
  deepStrictEqual(summary.restrictedFiles, ["d/later.txt", "secret.txt"]);
  deepStrictEqual(lines(get.stderr), [
    'repo-fs: restricted "d/later.txt" (embargoed until 2999-01-01): skipped, no access without an API token',
    'repo-fs: restricted "secret.txt": skipped, no access without an API token',
  ]);
  equal(t.emu.counters.heads, 1, "no request for a file nobody may read");
  deepStrictEqual(await filesBelow(out), ["open.txt"]);
  const text = await t.cli(["get", "**", "--out", join(t.tmp, "again")]);
  equal(text.code, 0, text.stderr);
  ok(
    text.stdout.includes(
      "; 2 restricted, skipped (no access without an API token)",
    ),
    text.stdout,
  );
});

Deno.test("get with a token reads the restricted files it was granted; the others are failures that say why", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  await using t = await setup({
    token,
    files: {
      "mine.txt": {
        content: "m",
        restricted: true,
        grantedToTokenHolder: true,
      },
      "theirs.txt": { content: "t", restricted: true },
    },
  });
  const out = join(t.tmp, "out");
  const result = await t.cli(["get", "**", "--out", out], {
    REPO_API_TOKEN: token,
  });
  equal(result.code, 1);
  deepStrictEqual(await filesBelow(out), ["mine.txt"]);
  const errors = lines(result.stderr);
  equal(errors.length, 1, result.stderr);
  ok(errors[0].startsWith('repo-fs: failed "theirs.txt": HTTP 403'), errors[0]);
  ok(
    errors[0].endsWith(
      "(the file is restricted; the API token sent has no access) (sent in X-Repo-key; Dataverse installations read it from X-Dataverse-key: add --token-header X-Dataverse-key (or REPO_FS_TOKEN_HEADER=X-Dataverse-key))",
    ),
    errors[0],
  );
});

Deno.test("the token works from REPO_API_TOKEN and --token-file and is never shown", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  await using t = await setup({ files: { "a.txt": "secret data" }, token });
  const tokenFile = join(t.tmp, "token");
  await Deno.writeTextFile(tokenFile, `${token}\n`);
  const out = join(t.tmp, "out");
  t.emu.faults.redirect = false; // content from the repository, with the token
  const results = await Promise.all([
    t.cli(["ls"], { REPO_API_TOKEN: token }),
    t.cli(["--token-file", tokenFile, "--verbose", "cat", "a.txt"], {
      REPO_API_TOKEN: "wrong",
    }),
    t.cli(["get", "a.txt", "--out", out, "--verbose"], {
      REPO_API_TOKEN: token,
    }),
    runCli([
      "--host",
      t.emu.host,
      "datasets",
      "root",
      "--token-file",
      tokenFile,
    ]),
    t.cli(["ls"]),
    t.cli(["--verbose", "ls"], { REPO_API_TOKEN: "wrong" }),
  ]);
  const [ls, cat, get, datasets, none, wrong] = results;
  equal(ls.code, 0, ls.stderr);
  equal(cat.code, 0, cat.stderr);
  equal(cat.stdout, "secret data");
  ok(cat.stderr.includes("debug: "), "verbose logs shown");
  equal(get.code, 0, get.stderr);
  equal(await Deno.readTextFile(join(out, "a.txt")), "secret data");
  equal(datasets.code, 0, datasets.stderr);
  equal(none.code, 1);
  ok(none.stderr.includes("Bad API key"), none.stderr);
  equal(wrong.code, 1);
  ok(wrong.stderr.includes("Bad API key"), wrong.stderr);
  for (const result of results) {
    ok(!result.stdout.includes(token), result.stdout);
    ok(!result.stderr.includes(token), result.stderr);
  }
  // Whitespace around the token is not part of it: fetch would drop it anyway.
  await Deno.writeTextFile(tokenFile, ` ${token}\t\r\n`);
  const padded = await t.cli(["--token-file", tokenFile, "cat", "a.txt"]);
  equal(padded.code, 0, padded.stderr);
  t.emu.faults.rules.push({
    route: "listing",
    status: 401,
    times: 2,
    message: (request) => `Bad API key ${request.headers.get("X-Repo-key")}`,
  });
  for (
    const echoed of [
      await t.cli(["--token-file", tokenFile, "ls"]),
      await t.cli(["ls"], { REPO_API_TOKEN: ` ${token} ` }),
    ]
  ) {
    equal(echoed.code, 1, echoed.stderr);
    ok(echoed.stderr.includes("Bad API key ***"), echoed.stderr);
    ok(!echoed.stderr.includes(token), echoed.stderr);
  }
  await Deno.writeTextFile(tokenFile, " \n");
  const empty = await t.cli(["--token-file", tokenFile, "ls"]);
  equal(empty.code, 1);
  ok(empty.stderr.includes("is empty"), empty.stderr);
});

Deno.test("emulate serves a folder: ls through it, then SIGTERM stops it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "sub"));
    await Deno.writeTextFile(join(dir, "sub", "hello.txt"), "hello\n");
    await Deno.writeTextFile(join(dir, "top.txt"), "top\n");
    const child = cliCommand(["emulate", dir, "--json"]).spawn();
    const reader = child.stdout.getReader();
    let text = "";
    let served: { host: string; pid: string; files: number } | undefined;
    while (served === undefined) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
      try {
        served = JSON.parse(text);
      } catch {
        // not all of it yet
      }
    }
    ok(served, text);
    equal(served.files, 2);
    const ls = await runCli([
      "--host",
      served.host,
      "--pid",
      served.pid,
      "find",
    ]);
    equal(ls.stdout, "sub/hello.txt\ntop.txt\n");
    const cat = await runCli([
      "--host",
      served.host,
      "--pid",
      served.pid,
      "cat",
      "sub/hello.txt",
    ]);
    equal(cat.stdout, "hello\n");
    child.kill("SIGTERM");
    const [status, stderr] = await Promise.all([
      child.status,
      new Response(child.stderr).text(),
      reader.cancel(),
    ]);
    equal(status.code, 0);
    equal(stderr, "Emulator stopped.\n");
    const text2 = await cliCommand(["emulate", join(dir, "missing")]).output();
    equal(text2.code, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("temporary names are hidden, marked, random and short", () => {
  const a = temporaryName("/out/data/a.csv");
  const b = temporaryName("/out/data/a.csv");
  ok(/^\/out\/data\/\.a\.csv\.repo-fs-partial-[0-9a-f]{16}$/.test(a), a);
  ok(a !== b);
  const long = temporaryName(`/out/${"é".repeat(200)}`);
  const name = long.slice("/out/".length);
  ok(new TextEncoder().encode(name).byteLength < 150, name);
  ok(name.startsWith(`.${"é".repeat(48)}.repo-fs-partial-`), name);
});

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { filesBelow, md5, runCli } from "./support.ts";

const FILES = {
  "README.md": "# hi\n",
  "data/a.nc": "aaaa",
  "data/b.csv": "b,c\n",
  "data/deep/c.nc": "cc",
  "data/deep/d.txt": "dd",
  "x/e.nc": "e",
};

async function setup() {
  const emu = await startEmulator({ files: FILES });
  const tmp = await Deno.makeTempDir();
  return {
    cli: (args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, ...args]),
    tmp,
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

Deno.test("get -o DIR -j N -q: the files, no progress, no summary", async () => {
  await using t = await setup();
  const run = await t.cli(["get", "data", "-o", t.tmp, "-j", "2", "-q"]);
  equal(run.code, 0, run.stderr);
  equal(run.stdout, "");
  equal(run.stderr, "");
  deepStrictEqual(await filesBelow(t.tmp), [
    "data/a.nc",
    "data/b.csv",
    "data/deep/c.nc",
    "data/deep/d.txt",
  ]);
  const bad = await t.cli(["get", "data", "-o", t.tmp, "-j", "0"]);
  equal(bad.code, 2);
  ok(bad.stderr.includes("--parallel must be >= 1"), bad.stderr);
});

Deno.test("get --no-progress keeps the summary", async () => {
  await using t = await setup();
  const run = await t.cli(["get", "README.md", "-o", t.tmp, "--no-progress"]);
  equal(run.code, 0, run.stderr);
  ok(run.stdout.startsWith("Downloaded 1 of 1 files"), run.stdout);
});

Deno.test("get --include and --exclude, repeatable, filter the selection: no / matches the base name, a / the path", async () => {
  await using t = await setup();
  const run = await t.cli([
    "get",
    "**",
    "-o",
    t.tmp,
    "--include",
    "*.nc",
    "--include",
    "*.txt",
    "--exclude",
    "data/deep/*",
    "-q",
  ]);
  equal(run.code, 0, run.stderr);
  deepStrictEqual(await filesBelow(t.tmp), ["data/a.nc", "x/e.nc"]);

  const none = await t.cli(["get", "data", "-o", t.tmp, "--include", "*.zip"]);
  equal(none.code, 1);
  equal(
    none.stderr,
    'repo-fs: no file of the 4 selected passes --include "*.zip"\n',
  );
  const dry = await t.cli([
    "--json",
    "get",
    "data",
    "--dry-run",
    "--exclude",
    "*.nc",
  ]);
  deepStrictEqual(
    JSON.parse(dry.stdout).files.map((f: { path: string }) => f.path),
    ["data/b.csv", "data/deep/d.txt"],
  );
});

Deno.test("ls -l shows size, type and checksum", async () => {
  await using t = await setup();
  const run = await t.cli(["ls", "-l", "data"]);
  equal(run.code, 0, run.stderr);
  const sum = (text: string) => `MD5:${md5(text)}`;
  deepStrictEqual(run.stdout.split("\n").filter((l) => l !== ""), [
    `   4 B  file       ${sum("aaaa")}  data/a.nc`,
    `   4 B  file       ${sum("b,c\n")}  data/b.csv`,
    `     -  directory  ${"-".padEnd(36)}  data/deep/`,
  ]);
});

Deno.test("tree -L N is --maxdepth N", async () => {
  await using t = await setup();
  const [short, long] = await Promise.all([
    t.cli(["tree", "-L", "1"]),
    t.cli(["tree", "--maxdepth", "1"]),
  ]);
  equal(short.code, 0, short.stderr);
  equal(short.stdout, long.stdout);
  ok(!short.stdout.includes("a.nc"), short.stdout);
  ok(short.stdout.includes("data/"), short.stdout);
});

Deno.test("--help lists the flags, each with an example", async () => {
  const [get, ls, tree] = await Promise.all([
    runCli(["get", "--help"]),
    runCli(["ls", "--help"]),
    runCli(["tree", "--help"]),
  ]);
  for (
    const flag of [
      "-o, --out DIR",
      "-j, --parallel N",
      "--include P",
      "--exclude P",
      "-q, --quiet",
      "--no-progress",
    ]
  ) {
    const at = get.stdout.split("\n").findIndex((line) =>
      line.startsWith(`  ${flag}`)
    );
    ok(at >= 0, flag);
    ok(
      get.stdout.split("\n")[at + 1].trim().startsWith("e.g. repo-fs get "),
      flag,
    );
  }
  ok(ls.stdout.includes("-l, --long"), ls.stdout);
  ok(ls.stdout.includes("e.g. repo-fs ls -l"), ls.stdout);
  ok(tree.stdout.includes("-L, --maxdepth N"), tree.stdout);
  ok(tree.stdout.includes("e.g. repo-fs tree climate.zarr -L 1"), tree.stdout);
});

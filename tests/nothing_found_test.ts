import { equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { runCli } from "./support.ts";

const FILES = {
  "README.md": "# hi\n",
  "data/a.nc": "a",
  "data/deep/b.nc": "b",
  "x/c.nc": "c",
};

Deno.test("a path or pattern that matches nothing: one line on stderr, exit 1, for every command", async () => {
  await using emu = await startEmulator({ files: FILES });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const tmp = await Deno.makeTempDir();
  try {
    const commands = [
      ["ls", "nope"],
      ["tree", "nope"],
      ["find", "nope"],
      ["info", "nope"],
      ["cat", "nope"],
      ["glob", "nope*"],
      ["get", "nope*", "--out", tmp],
      ["--json", "glob", "nope*"],
    ];
    const runs = await Promise.all(
      commands.map((args) => runCli([...target, ...args])),
    );
    runs.forEach((run, i) => {
      const what = commands[i].join(" ");
      equal(run.code, 1, `${what}: ${run.stderr}`);
      equal(run.stdout, "", what);
      equal(run.stderr.split("\n").length, 2, `${what}: ${run.stderr}`);
      ok(run.stderr.endsWith("\n"), what);
    });
    for (const run of runs.slice(0, 5)) {
      equal(
        run.stderr,
        'repo-fs: No such file or directory in the dataset: "nope"\n',
      );
    }
    for (const run of runs.slice(5)) {
      equal(run.stderr, 'repo-fs: no file matches "nope*"\n');
    }
    equal((await Array.fromAsync(Deno.readDir(tmp))).length, 0);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a pattern without ** that matches only deeper says how many ** would match", async () => {
  await using emu = await startEmulator({ files: FILES });
  const target = ["--host", emu.host, "--pid", emu.pid];
  const tmp = await Deno.makeTempDir();
  try {
    const [glob, get, nested, path, matched] = await Promise.all([
      runCli([...target, "glob", "*.nc"]),
      runCli([...target, "get", "*.nc", "--out", tmp]),
      runCli([...target, "glob", "data/*.txt"]),
      runCli([...target, "ls", "b.nc"]),
      runCli([...target, "glob", "data/*.nc"]),
    ]);
    equal(glob.code, 1);
    equal(
      glob.stderr,
      'repo-fs: no file matches "*.nc" at the top level; 3 match "**/*.nc"\n',
    );
    equal(get.code, 1);
    equal(get.stderr, glob.stderr);
    equal(nested.code, 1);
    equal(nested.stderr, 'repo-fs: no file matches "data/*.txt"\n');
    equal(path.code, 1);
    equal(
      path.stderr,
      'repo-fs: No such file or directory in the dataset: "b.nc" at the top level; 1 matches "**/b.nc"\n',
    );
    equal(matched.code, 0, matched.stderr);
    equal(matched.stdout, "data/a.nc\n");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a directory with no file within --maxdepth is found: find prints nothing and exits 0", async () => {
  await using emu = await startEmulator({
    entries: [{ directoryLabel: "empty/sub", filename: "f", file: "x" }],
  });
  const run = await runCli([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "find",
    "empty",
    "--maxdepth",
    "1",
  ]);
  equal(run.code, 0, run.stderr);
  equal(run.stdout, "");
});

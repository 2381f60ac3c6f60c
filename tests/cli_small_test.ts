import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { type CliRun, runCli } from "./support.ts";

const FILES = { "a/b.txt": "hello", "a/c/d.txt": "xy", "top.txt": "t" };

function json<T>(run: CliRun): T {
  equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

Deno.test("directories alike in text and JSON: no size in either; info DIR gives its files and bytes", async () => {
  await using emu = await startEmulator({ files: FILES });
  const cli = (...args: string[]) =>
    runCli(["--host", emu.host, "--pid", emu.pid, ...args]);
  const [ls, lsJson, treeJson, info, infoJson, root] = await Promise.all([
    cli("ls"),
    cli("--json", "ls"),
    cli("--json", "tree"),
    cli("info", "a"),
    cli("--json", "info", "a"),
    cli("info", "/"),
  ]);
  equal(ls.stdout.split("\n")[0], "     -  a/");
  const [dir, file] = json<Record<string, unknown>[]>(lsJson);
  deepStrictEqual(dir, { name: "a", type: "directory" });
  equal(file.size, 1);
  const tree = json<{ children: Record<string, unknown>[] }>(treeJson);
  ok(!("size" in tree), "root");
  ok(!("size" in tree.children[0]), "a");
  ok(
    !("size" in (tree.children[0].children as Record<string, unknown>[])[1]),
    "a/c",
  );
  equal(
    info.stdout,
    "name:         a\ntype:         directory\nfiles:        2\nbytes:        7\n",
  );
  deepStrictEqual(json(infoJson), {
    name: "a",
    type: "directory",
    files: 2,
    bytes: 7,
  });
  ok(root.stdout.includes("files:        3\n"), root.stdout);
});

Deno.test("find --withdirs and glob end directories in / in text, not in JSON", async () => {
  await using emu = await startEmulator({ files: FILES });
  const cli = (...args: string[]) =>
    runCli(["--host", emu.host, "--pid", emu.pid, ...args]);
  const [find, glob, dirsOnly, findJson, globJson] = await Promise.all([
    cli("find", "--withdirs"),
    cli("glob", "a/*"),
    cli("glob", "*/"),
    cli("--json", "find", "--withdirs"),
    cli("--json", "glob", "a/*"),
  ]);
  equal(find.stdout, "a/\na/b.txt\na/c/\na/c/d.txt\ntop.txt\n");
  equal(glob.stdout, "a/b.txt\na/c/\n");
  equal(dirsOnly.stdout, "a/\n");
  deepStrictEqual(json(findJson), [
    "a",
    "a/b.txt",
    "a/c",
    "a/c/d.txt",
    "top.txt",
  ]);
  deepStrictEqual(json(globJson), ["a/b.txt", "a/c"]);
});

Deno.test("demo:browser runs without Deno's legacy-abort warning, as demo does", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("../deno.json", import.meta.url)),
  );
  for (const task of ["demo", "demo:browser"]) {
    ok(
      config.tasks[task].startsWith("deno run --unstable-no-legacy-abort "),
      task,
    );
  }
});

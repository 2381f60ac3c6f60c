import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { runCli } from "./support.ts";

Deno.test("get --resume: a listed file that is a local directory, or under a local file, fails in one line naming both paths, before any byte of it is asked for", async () => {
  await using emu = await startEmulator({
    files: {
      "a.txt": "hello",
      "data/b.txt": "bee",
      "data/c.txt": "sea",
      "x/y.txt": "why",
    },
  });
  const asked = new Set<number>();
  emu.faults.respond = (_request, info) => {
    if (info.fileId !== undefined) asked.add(info.fileId);
    return undefined;
  };
  const out = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(join(out, "data", "b.txt", "kept"), { recursive: true });
    await Deno.writeTextFile(join(out, "x"), "a file where a folder is listed");
    const run = await runCli([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "**",
      "--out",
      out,
      "--resume",
    ]);
    equal(run.code, 1, run.stderr);
    deepStrictEqual(run.stderr.split("\n").filter((line) => line !== ""), [
      `repo-fs: failed "data/b.txt": it is a file in the dataset, but ${
        join(out, "data", "b.txt")
      } is a directory`,
      `repo-fs: failed "x/y.txt": its folder is a directory in the dataset, but ${
        join(out, "x")
      } is a file`,
    ]);
    ok(run.stdout.startsWith("Downloaded 2 of 4 files"), run.stdout);
    ok(run.stdout.includes("; 2 failed"), run.stdout);
    equal(asked.has(emu.fileId("data/b.txt")), false);
    equal(asked.has(emu.fileId("x/y.txt")), false);
    equal(asked.has(emu.fileId("a.txt")), true);
    equal(await Deno.readTextFile(join(out, "data", "c.txt")), "sea");
    equal(
      (await Deno.stat(join(out, "data", "b.txt", "kept"))).isDirectory,
      true,
    );
    equal(
      await Deno.readTextFile(join(out, "x")),
      "a file where a folder is listed",
    );
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

// Behaviour of src/cli/get.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { parseCommandLine } from "../../../src/cli/args.ts";
import { Context } from "../../../src/cli/context.ts";
import { get } from "../../../src/cli/get.ts";
import { Output } from "../../../src/cli/io.ts";

Deno.test("get: `get PATTERN", async () => {
  await using emu = await startEmulator({
    files: { "data/a.csv": "x,y\n", "README.md": "# hi" },
  });
  const dir = await Deno.makeTempDir();
  try {
    const line = parseCommandLine([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "get",
      "data",
      "--out",
      dir,
    ]);
    strictEqual(await get(new Context(line, new Output())), 0); // a summary line on stdout
    strictEqual(await Deno.readTextFile(`${dir}/data/a.csv`), "x,y\n");
    deepStrictEqual(
      await Array.fromAsync(Deno.readDir(dir), (entry) => entry.name),
      ["data"],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Behaviour of src/cli/cat.ts, moved here from the examples on its internal symbols.
// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import { strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { parseCommandLine } from "../../../src/cli/args.ts";
import { cat } from "../../../src/cli/cat.ts";
import { Context } from "../../../src/cli/context.ts";
import { Output } from "../../../src/cli/io.ts";

Deno.test("cat: `cat PATH [--start N] [--end N]`: a whole file is streamed one network chunk at a time; a range (end…", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello, world" } });
  const out = new Output();
  let written = "";
  out.bytes = async (bytes) => {
    written += new TextDecoder().decode(bytes);
  }; // instead of stdout
  const line = (...options: string[]) =>
    parseCommandLine([
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "cat",
      "a.txt",
      ...options,
    ]);
  strictEqual(await cat(new Context(line(), out)), 0);
  strictEqual(written, "hello, world"); // streamed whole
  written = "";
  strictEqual(await cat(new Context(line("--start", "-5"), out)), 0);
  strictEqual(written, "world"); // a range, counted from the end
});

// Behaviour of src/cli/browse.ts, moved here from the examples on its internal symbols.
// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { parseCommandLine } from "../../../src/cli/args.ts";
import {
  datasets,
  find,
  glob,
  info,
  ls,
  tree,
} from "../../../src/cli/browse.ts";
import { Context } from "../../../src/cli/context.ts";
import { Output } from "../../../src/cli/io.ts";

Deno.test("ls: `ls [PATH]`: the direct children of a directory (or the file itself)", async () => {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "ls"]);
  strictEqual(await ls(new Context(line, out)), 0);
  deepStrictEqual(printed[0].split("\n"), [
    "  12 B  README.md",
    "     -  data/",
  ]);
});

Deno.test("tree: `tree [PATH] [--maxdepth N]`: the tree drawn, or nested JSON", async () => {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "tree"]);
  strictEqual(await tree(new Context(line, out)), 0);
  deepStrictEqual(printed[0].split("\n"), [
    ".",
    "├── README.md  (12 B)",
    "└── data/",
    "    └── a.csv  (4 B)",
    "",
    "1 directory, 2 files, 16 B",
  ]);
});

Deno.test("find: `find [PATH] [--maxdepth N] [--withdirs]`: paths below a directory", async () => {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "find",
    "--withdirs",
  ]);
  strictEqual(await find(new Context(line, out)), 0);
  deepStrictEqual(printed[0].split("\n"), ["README.md", "data/", "data/a.csv"]);
});

Deno.test("glob: `glob PATTERN`: paths matching a pattern", async () => {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: unknown[] = [];
  out.json = async (value) => {
    printed.push(value);
  }; // instead of stdout
  const line = parseCommandLine([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "--json",
    "glob",
    "data/*.csv",
  ]);
  strictEqual(await glob(new Context(line, out)), 0);
  deepStrictEqual(printed, [["data/a.csv"]]);
});

Deno.test("info: `info PATH`: what the listing says about a path", async () => {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "info",
    "data/a.csv",
  ]);
  strictEqual(await info(new Context(line, out)), 0);
  deepStrictEqual(printed[0].split("\n"), [
    "name:         data/a.csv",
    "type:         file",
    "size:         4",
    "id:           1002",
    "content type: application/octet-stream",
    "checksum:     MD5 043212bb9834e334677e9c9659294bd4",
  ]);
});

Deno.test("datasets: `datasets ALIAS`: the items of a collection, one line each with the value to pass as `--pid`;…", async () => {
  await using emu = await startEmulator();
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine(["--host", emu.host, "datasets", emu.alias]);
  strictEqual(await datasets(new Context(line, out)), 0);
  deepStrictEqual(printed, [
    "doi:10.5072/FK2/EMULATED  dataset  https://doi.org/10.5072/FK2/EMULATED",
  ]);
});

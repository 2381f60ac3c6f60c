/**
 * The listing commands: `ls`, `tree`, `find`, `glob`, `info` and
 * `datasets`. Each prints human-readable lines, or JSON with `--json`.
 *
 * @module
 */

import { listCollection } from "../repo_fs.ts";
import { integerOption } from "./args.ts";
import type { Context } from "./context.ts";
import { infoLines, lsLines } from "./format.ts";
import { displayPath } from "./io.ts";
import { drawTree, readTree } from "./tree.ts";
import { treeJson } from "./tree_json.ts";

/**
 * `ls [PATH]`: the direct children of a directory (or the file itself).
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { ls } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "README.md": "# An example", "data/a.csv": "x,y\n" } });
 * const out = new Output();
 * const printed: string[] = [];
 * out.print = async (text) => { printed.push(text); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "ls"]);
 * strictEqual(await ls(new Context(line, out)), 0);
 * deepStrictEqual(printed[0].split("\n"), ["  12 B  README.md", "     -  data/"]);
 * ```
 */
export async function ls(context: Context): Promise<number> {
  const fs = await context.dataset();
  const entries = await fs.ls(context.arg(0) ?? "");
  if (context.json) await context.out.json(entries);
  else await printLines(context, lsLines(entries));
  return 0;
}

/**
 * `tree [PATH] [--maxdepth N]`: the tree drawn, or nested JSON.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { tree } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "README.md": "# An example", "data/a.csv": "x,y\n" } });
 * const out = new Output();
 * const printed: string[] = [];
 * out.print = async (text) => { printed.push(text); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "tree"]);
 * strictEqual(await tree(new Context(line, out)), 0);
 * deepStrictEqual(printed[0].split("\n"), [
 *   ".",
 *   "├── README.md  (12 B)",
 *   "└── data/",
 *   "    └── a.csv  (4 B)",
 *   "",
 *   "1 directory, 2 files, 16 B",
 * ]);
 * ```
 */
export async function tree(context: Context): Promise<number> {
  const maxdepth = integerOption(context.line, "maxdepth", { min: 1 });
  const fs = await context.dataset();
  const root = await readTree(fs, context.arg(0) ?? "", maxdepth);
  if (context.json) await context.out.print(treeJson(root));
  else await printLines(context, drawTree(root));
  return 0;
}

/**
 * `find [PATH] [--maxdepth N] [--withdirs]`: paths below a directory.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { find } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "README.md": "# An example", "data/a.csv": "x,y\n" } });
 * const out = new Output();
 * const printed: string[] = [];
 * out.print = async (text) => { printed.push(text); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "find", "--withdirs"]);
 * strictEqual(await find(new Context(line, out)), 0);
 * deepStrictEqual(printed[0].split("\n"), ["README.md", "data", "data/a.csv"]);
 * ```
 */
export async function find(context: Context): Promise<number> {
  const maxdepth = integerOption(context.line, "maxdepth", { min: 1 });
  const fs = await context.dataset();
  const paths = await fs.find(context.arg(0) ?? "", {
    maxdepth,
    withdirs: context.line.values.withdirs === true,
  });
  await printPaths(context, paths);
  return 0;
}

/**
 * `glob PATTERN`: paths matching a pattern.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { glob } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "README.md": "# An example", "data/a.csv": "x,y\n" } });
 * const out = new Output();
 * const printed: unknown[] = [];
 * out.json = async (value) => { printed.push(value); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "--json", "glob", "data/*.csv"]);
 * strictEqual(await glob(new Context(line, out)), 0);
 * deepStrictEqual(printed, [["data/a.csv"]]);
 * ```
 */
export async function glob(context: Context): Promise<number> {
  const fs = await context.dataset();
  await printPaths(context, await fs.glob(context.arg(0)!));
  return 0;
}

/**
 * `info PATH`: what the listing says about a path.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { info } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "README.md": "# An example", "data/a.csv": "x,y\n" } });
 * const out = new Output();
 * const printed: string[] = [];
 * out.print = async (text) => { printed.push(text); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "--pid", emu.pid, "info", "data/a.csv"]);
 * strictEqual(await info(new Context(line, out)), 0);
 * deepStrictEqual(printed[0].split("\n"), [
 *   "name:         data/a.csv",
 *   "type:         file",
 *   "size:         4",
 *   "id:           1002",
 *   "content type: application/octet-stream",
 *   "checksum:     MD5 043212bb9834e334677e9c9659294bd4",
 * ]);
 * ```
 */
export async function info(context: Context): Promise<number> {
  const fs = await context.dataset();
  const entry = await fs.info(context.arg(0)!);
  if (context.json) await context.out.json(entry);
  else await printLines(context, infoLines(entry));
  return 0;
}

/**
 * `datasets ALIAS`: the items of a collection, one line each with the value
 * to pass as `--pid`; `--json` prints the items as the repository sent them.
 *
 * @example
 * ```ts
 * import { startEmulator } from "../../emulator.ts";
 * import { parseCommandLine } from "./args.ts";
 * import { datasets } from "./browse.ts";
 * import { Context } from "./context.ts";
 * import { Output } from "./io.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator();
 * const out = new Output();
 * const printed: string[] = [];
 * out.print = async (text) => { printed.push(text); }; // instead of stdout
 * const line = parseCommandLine(["--host", emu.host, "datasets", emu.alias]);
 * strictEqual(await datasets(new Context(line, out)), 0);
 * deepStrictEqual(printed, [
 *   "doi:10.5072/FK2/EMULATED  dataset  https://doi.org/10.5072/FK2/EMULATED",
 * ]);
 * ```
 */
export async function datasets(context: Context): Promise<number> {
  const items = await listCollection({
    host: context.host(),
    alias: context.arg(0)!,
    token: await context.token(),
    ...context.names(),
    timeoutMs: context.timeoutMs(),
  });
  if (context.json) {
    await context.out.json(items);
    return 0;
  }
  await printLines(context, items.map(itemLine));
  return 0;
}

/** One collection item: its persistent id (or id), type and URL. */
function itemLine(item: unknown): string {
  const fields =
    (typeof item === "object" && item !== null ? item : {}) as Record<
      string,
      unknown
    >;
  const { protocol, authority, separator = "/", identifier } = fields;
  const pid =
    [protocol, authority, identifier].every((v) => typeof v === "string")
      ? `${protocol}:${authority}${separator}${identifier}`
      : `id ${fields.id ?? "?"}`;
  return [pid, fields.type, fields.persistentUrl ?? fields.title]
    .filter((part) => part !== undefined)
    .map((part) => displayPath(String(part)))
    .join("  ");
}

async function printPaths(context: Context, paths: string[]): Promise<void> {
  if (context.json) await context.out.json(paths);
  else await printLines(context, paths.map(displayPath));
}

async function printLines(context: Context, lines: string[]): Promise<void> {
  if (lines.length > 0) await context.out.print(lines.join("\n"));
}

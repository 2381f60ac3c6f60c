/**
 * The command line's entry: parses the arguments, runs the command, and
 * turns any error into one line on stderr and an exit status.
 *
 * @module
 */

import { type CommandLine, parseCommandLine, UsageError } from "./args.ts";
import { cat } from "./cat.ts";
import { datasets, find, glob, info, ls, tree } from "./browse.ts";
import { Context } from "./context.ts";
import { emulate } from "./emulate.ts";
import { explore } from "./explore.ts";
import { get } from "./get.ts";
import { refs } from "./refs.ts";
import { show } from "./show.ts";
import { Output } from "./io.ts";
import { failureLine } from "./failure_line.ts";
import { findCommand, helpText } from "./spec.ts";
import { shortWords } from "../base/short_path.ts";

/** Exit status of a failure. */
const FAILURE = 1;
/** Exit status of bad usage. */
const USAGE = 2;

const RUNNERS: Record<string, (context: Context) => Promise<number>> = {
  ls,
  tree,
  find,
  glob,
  info,
  cat,
  get,
  refs,
  show,
  datasets,
  emulate,
  explore,
};

/**
 * Runs the `repo-fs` command line with `args` (without the program name)
 * and resolves to the exit status: 0 success, 1 failure, 2 bad usage, 130
 * interrupted. Output goes to the process's stdout and stderr.
 *
 * @example
 * ```ts
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { main } from "@x/repo-fs/cli";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * strictEqual(await main(["--host", emu.host, "--pid", emu.pid, "ls"]), 0); // lists a.txt on stdout
 * strictEqual(await main(["--host", emu.host, "--pid", emu.pid, "cat", "b.txt"]), 1); // no such file: one line on stderr
 * strictEqual(await main(["ls", "--nope"]), 2); // bad usage: an unknown option
 * ```
 */
export async function main(args: readonly string[]): Promise<number> {
  const out = new Output();
  let line: CommandLine;
  try {
    line = parseCommandLine(args);
  } catch (error) {
    return usage(out, error as UsageError);
  }
  const context = new Context(line, out);
  try {
    if (line.help) {
      await out.print(helpText(line.command));
      return 0;
    }
    return await RUNNERS[line.command!.name](context);
  } catch (error) {
    if (error instanceof UsageError) return usage(out, error);
    if (error instanceof Deno.errors.BrokenPipe) return 0;
    if (context.verbose && error instanceof Error && error.stack) {
      out.stderr(`${error.stack}\n`);
    }
    out.error(shortWords(await failureLine(error, context)));
    return FAILURE;
  }
}

function usage(out: Output, error: UsageError): number {
  const help = error.command && findCommand(error.command)
    ? `repo-fs ${error.command} --help`
    : "repo-fs --help";
  out.error(`${error.message} (see ${help})`);
  return USAGE;
}

/**
 * Argument parsing: finds the command word, then parses the global options
 * and the command's own with `node:util` `parseArgs` in strict mode, so an
 * unknown option, a missing value or a wrong number of arguments is a
 * {@linkcode UsageError} (exit status 2).
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  COMMANDS,
  type CommandSpec,
  findCommand,
  GLOBAL_OPTIONS,
  type OptionSpec,
} from "./spec.ts";

/** Bad usage: the message is one line, and the exit status is 2. */
export class UsageError extends Error {
  /** The command whose help to point at, if known. */
  readonly command?: string;
  /**
   * Makes the error.
   * @param message what is wrong, one line
   * @param command the command whose help to point at
   */
  constructor(message: string, command?: string) {
    super(message);
    this.name = "UsageError";
    this.command = command;
  }
}

/** A parsed command line. */
export interface CommandLine {
  /** The command; `undefined` only when help for the tool was asked. */
  command?: CommandSpec;
  /** Whether help was asked (`--help`, `-h` or `help [COMMAND]`). */
  help: boolean;
  /** The command's arguments. */
  positionals: string[];
  /** Option values by long name (a list for an option given more than once). */
  values: Record<string, string | string[] | boolean | undefined>;
}

/**
 * Parses the arguments. Global options may come before or after the
 * command; a negative number may follow an integer option as its own word
 * (`--start -10`); a leading `--`, which `deno task cli -- ...` passes on,
 * is dropped.
 */
export function parseCommandLine(args: readonly string[]): CommandLine {
  const words = joinNegativeNumbers(args[0] === "--" ? args.slice(1) : args);
  const at = commandIndex(words);
  if (at === -1) {
    const values = parse(words, GLOBAL_OPTIONS, undefined).values;
    if (values.help) return { help: true, positionals: [], values };
    throw new UsageError("missing command");
  }
  const name = words[at];
  const rest = [...words.slice(0, at), ...words.slice(at + 1)];
  if (name === "help") {
    const { positionals, values } = parse(rest, GLOBAL_OPTIONS, undefined);
    if (positionals.length > 1) throw new UsageError("help takes one command");
    const command = positionals.length === 1
      ? known(positionals[0])
      : undefined;
    return { command, help: true, positionals: [], values };
  }
  const command = known(name);
  const options = { ...GLOBAL_OPTIONS, ...command.options };
  const { positionals, values } = parse(rest, options, command.name);
  if (values.help) return { command, help: true, positionals, values };
  if (positionals.length < command.min) {
    const missing = command.args.split(" ")[positionals.length];
    throw new UsageError(
      `${command.name}: missing argument ${missing.replace(/[[\].]/g, "")}`,
      command.name,
    );
  }
  if (positionals.length > command.max) {
    throw new UsageError(
      `${command.name}: too many arguments (${positionals.length})`,
      command.name,
    );
  }
  return { command, help: false, positionals, values };
}

/**
 * An integer option's value: `undefined` when absent, else checked to be
 * an integer within `min`..`max`.
 */
export function integerOption(
  line: CommandLine,
  name: string,
  range: { min?: number; max?: number } = {},
): number | undefined {
  const text = line.values[name];
  if (typeof text !== "string") return undefined;
  const where = line.command?.name;
  const value = /^-?\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new UsageError(
      `--${name} must be an integer, got ${JSON.stringify(text)}`,
      where,
    );
  }
  const { min = -Infinity, max = Infinity } = range;
  if (value < min || value > max) {
    const bounds = max === Infinity ? `>= ${min}` : `${min}..${max}`;
    throw new UsageError(`--${name} must be ${bounds}, got ${value}`, where);
  }
  return value;
}

/** A string option's value, `undefined` when absent. */
export function stringOption(
  line: CommandLine,
  name: string,
): string | undefined {
  const value = line.values[name];
  return typeof value === "string" ? value : undefined;
}

/** The values of an option that may be repeated, in order; `[]` when absent. */
export function listOption(line: CommandLine, name: string): string[] {
  const value = line.values[name];
  return Array.isArray(value)
    ? value
    : typeof value === "string"
    ? [value]
    : [];
}

/** Every option name that takes a value, across all commands. */
const VALUE_OPTIONS = new Set(
  [GLOBAL_OPTIONS, ...COMMANDS.map((c) => c.options)].flatMap((options) =>
    Object.entries(options)
      .filter(([, spec]) => spec.type === "string")
      .map(([name]) => `--${name}`)
  ),
);

/** `--start -10` becomes `--start=-10`, which parseArgs accepts. */
function joinNegativeNumbers(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (
      VALUE_OPTIONS.has(args[i]) && next !== undefined && /^-\d+$/.test(next)
    ) {
      words.push(`${args[i]}=${next}`);
      i++;
    } else {
      words.push(args[i]);
    }
  }
  return words;
}

/** Index of the command word: the first word that is no option or option value. */
function commandIndex(words: readonly string[]): number {
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "--") return i + 1 < words.length ? i + 1 : -1;
    if (!word.startsWith("-") || word === "-") return i;
    const name = word.slice(2);
    if (word.startsWith("--") && GLOBAL_OPTIONS[name]?.type === "string") i++;
  }
  return -1;
}

function known(name: string): CommandSpec {
  const command = findCommand(name);
  if (command === undefined) {
    throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  }
  return command;
}

function parse(
  args: string[],
  options: Record<string, OptionSpec>,
  command: string | undefined,
): { positionals: string[]; values: CommandLine["values"] } {
  const config = Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.short ? { short: spec.short } : {}),
        ...(spec.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  try {
    const { positionals, values } = parseArgs({
      args,
      options: config,
      allowPositionals: true,
      strict: true,
    });
    return { positionals, values: values as CommandLine["values"] };
  } catch (error) {
    const first = (error as Error).message.split(/\n|\.\s/)[0];
    const prefix = command === undefined ? "" : `${command}: `;
    throw new UsageError(`${prefix}${first}`, command);
  }
}

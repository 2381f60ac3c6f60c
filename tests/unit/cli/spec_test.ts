// Behaviour of src/cli/spec.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  COMMANDS,
  findCommand,
  GLOBAL_OPTIONS,
  helpText,
} from "../../../src/cli/spec.ts";

Deno.test("GLOBAL_OPTIONS: Options every command takes, before or after the command word", () => {
  strictEqual(GLOBAL_OPTIONS.host.value, "H");
  strictEqual(GLOBAL_OPTIONS.help.short, "h");
});

Deno.test("COMMANDS: The commands, in help order", () => {
  strictEqual(
    COMMANDS.map((c) => c.name).join(" "),
    "ls tree find glob info cat get refs show datasets explore emulate",
  );
});

Deno.test("findCommand: The command of a given name", () => {
  strictEqual(findCommand("ls")?.max, 1);
  strictEqual(findCommand("rm"), undefined);
});

Deno.test("helpText: Help text for the tool, or for one command", () => {
  strictEqual(
    helpText().split("\n")[0],
    "repo-fs: browse and download a dataset of a research-data repository",
  );
  strictEqual(
    helpText(findCommand("glob")).split("\n")[0],
    "Usage: repo-fs [global options] glob PATTERN",
  );
});

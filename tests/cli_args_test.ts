import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  integerOption,
  parseCommandLine,
  stringOption,
  UsageError,
} from "../src/cli/args.ts";
import {
  COMMANDS,
  findCommand,
  GLOBAL_OPTIONS,
  helpText,
} from "../src/cli/spec.ts";
import { Context } from "../src/cli/context.ts";
import { displayPath, Output, quotePath } from "../src/cli/io.ts";

Deno.test("a usage error exits 2", () => {
  const error = new UsageError("missing PATH", "info");
  strictEqual(error.command, "info");
  strictEqual(error.name, "UsageError");
});

Deno.test("a parsed command line", () => {
  const line = parseCommandLine(["--host", "h", "ls", "a", "--json"]);
  strictEqual(line.command?.name, "ls");
  deepStrictEqual(line.positionals, ["a"]);
  strictEqual(line.values.host, "h");
  strictEqual(line.values.json, true);
});

Deno.test("parseCommandLine parses options and command", () => {
  strictEqual(
    parseCommandLine(["cat", "a.bin", "--start", "-10"]).values.start,
    "-10",
  );
  strictEqual(parseCommandLine(["help", "get"]).help, true);
  throws(() => parseCommandLine(["ls", "--nope"]), UsageError);
  throws(() => parseCommandLine(["info"]), {
    message: "info: missing argument PATH",
  });
});

Deno.test("integer options are checked", () => {
  const line = parseCommandLine(["find", "--maxdepth", "2"]);
  strictEqual(integerOption(line, "maxdepth", { min: 1 }), 2);
  strictEqual(integerOption(parseCommandLine(["find"]), "maxdepth"), undefined);
  throws(
    () =>
      integerOption(parseCommandLine(["find", "--maxdepth", "0"]), "maxdepth", {
        min: 1,
      }),
    { message: "--maxdepth must be >= 1, got 0" },
  );
});

Deno.test("string options", () => {
  strictEqual(
    stringOption(parseCommandLine(["--pid", "doi:1/2", "ls"]), "pid"),
    "doi:1/2",
  );
  strictEqual(stringOption(parseCommandLine(["ls"]), "pid"), undefined);
});

Deno.test("global options", () => {
  strictEqual(GLOBAL_OPTIONS.host.value, "H");
  strictEqual(GLOBAL_OPTIONS.help.short, "h");
});

Deno.test("commands in help order", () => {
  strictEqual(
    COMMANDS.map((c) => c.name).join(" "),
    "ls tree find glob info cat get refs show datasets explore emulate",
  );
});

Deno.test("findCommand finds a command", () => {
  strictEqual(findCommand("ls")?.max, 1);
  strictEqual(findCommand("rm"), undefined);
});

Deno.test("help text of the tool and a command", () => {
  strictEqual(
    helpText().split("\n")[0],
    "repo-fs: browse and download a dataset of a research-data repository",
  );
  strictEqual(
    helpText(findCommand("glob")).split("\n")[0],
    "Usage: repo-fs [global options] glob PATTERN",
  );
});

Deno.test("a context holds one run", () => {
  const context = new Context(
    parseCommandLine(["--json", "ls", "data"]),
    new Output(),
  );
  strictEqual(context.json, true);
  strictEqual(context.arg(0), "data");
  throws(() => context.host(), {
    name: "UsageError",
    message:
      "ls needs --dataset URL, or --host and --pid (or REPO_FS_DATASET, REPO_FS_HOST, REPO_FS_PID)",
  });
});

Deno.test("output streams", async () => {
  const out = new Output();
  out.hide("s3cret");
  await out.print("listing done"); // stdout
  strictEqual(out.redact("token s3cret refused"), "token *** refused");
  out.error("token s3cret refused"); // stderr gets "repo-fs: token *** refused"
  out.error("not found\x1b]0;pwned\x07"); // stderr gets "repo-fs: not found\u001b]0;pwned\u0007"
});

Deno.test("displayPath quotes what is not plain", () => {
  strictEqual(displayPath("a/b.txt"), "a/b.txt");
  strictEqual(displayPath("a\u001b[2J"), '"a\\u001b[2J"');
});

Deno.test("quotePath escapes control characters", () => {
  strictEqual(quotePath("a/b.txt"), '"a/b.txt"');
  strictEqual(quotePath("x\u202etxt.exe"), '"x\\u202etxt.exe"');
});

// Behaviour of src/cli/args.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  integerOption,
  parseCommandLine,
  stringOption,
  UsageError,
} from "../../../src/cli/args.ts";

Deno.test("UsageError: Bad usage: the message is one line, and the exit status is 2", () => {
  const error = new UsageError("missing PATH", "info");
  strictEqual(error.command, "info");
  strictEqual(error.name, "UsageError");
});

Deno.test("CommandLine: A parsed command line", () => {
  const line = parseCommandLine(["--host", "h", "ls", "a", "--json"]);
  strictEqual(line.command?.name, "ls");
  deepStrictEqual(line.positionals, ["a"]);
  strictEqual(line.values.host, "h");
  strictEqual(line.values.json, true);
});

Deno.test("parseCommandLine: Parses the arguments", () => {
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

Deno.test("integerOption: An integer option's value: `undefined` when absent, else checked to be an integer within…", () => {
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

Deno.test("stringOption: A string option's value, `undefined` when absent", () => {
  strictEqual(
    stringOption(parseCommandLine(["--pid", "doi:1/2", "ls"]), "pid"),
    "doi:1/2",
  );
  strictEqual(stringOption(parseCommandLine(["ls"]), "pid"), undefined);
});

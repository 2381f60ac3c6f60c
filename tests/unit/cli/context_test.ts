// Behaviour of src/cli/context.ts, moved here from the examples on its internal symbols.
import { strictEqual, throws } from "node:assert/strict";
import { parseCommandLine } from "../../../src/cli/args.ts";
import { Context } from "../../../src/cli/context.ts";
import { Output } from "../../../src/cli/io.ts";

Deno.test("Context: One run of one command", () => {
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

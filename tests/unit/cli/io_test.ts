// Behaviour of src/cli/io.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { displayPath, Output, quotePath } from "../../../src/cli/io.ts";

Deno.test("Output: The process's output streams", async () => {
  const out = new Output();
  out.hide("s3cret");
  await out.print("listing done"); // stdout
  strictEqual(out.redact("token s3cret refused"), "token *** refused");
  out.error("token s3cret refused"); // stderr gets "repo-fs: token *** refused"
  out.error("not found\x1b]0;pwned\x07"); // stderr gets "repo-fs: not found\u001b]0;pwned\u0007"
});

Deno.test("displayPath: A dataset path as it may be shown on a terminal: as it is when it is plain text, JSON-quoted…", () => {
  strictEqual(displayPath("a/b.txt"), "a/b.txt");
  strictEqual(displayPath("a\u001b[2J"), '"a\\u001b[2J"');
});

Deno.test("quotePath: A dataset path in double quotes with JSON escapes, control and text-direction characters…", () => {
  strictEqual(quotePath("a/b.txt"), '"a/b.txt"');
  strictEqual(quotePath("x\u202etxt.exe"), '"x\\u202etxt.exe"');
});

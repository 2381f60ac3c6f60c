// Behaviour of src/emulator/sources.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual } from "node:assert/strict";
import { collectSources, toFileSpec } from "../../../src/emulator/sources.ts";

Deno.test("collectSources: Collects the entries of every version, reading `options.dir` once", async () => {
  const sources = await collectSources({
    files: { "a/b.txt": "hi", "c.txt": "ho" },
  });
  deepStrictEqual(sources.main, [
    { directoryLabel: "a", filename: "b.txt", file: "hi" },
    { filename: "c.txt", file: "ho" },
  ]);
});

Deno.test("toFileSpec: The file description of any accepted content form", () => {
  deepStrictEqual(toFileSpec("hi"), { content: "hi" });
  deepStrictEqual(toFileSpec({ content: "hi", restricted: true }), {
    content: "hi",
    restricted: true,
  });
});

/**
 * The examples of `docs/formats.md` and `docs/api.md` run as the pages say
 * they do: each `ts` block as a script from the checkout's root, importing
 * the package by name.
 */

import { equal, ok } from "node:assert/strict";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const decoder = new TextDecoder();

/** The `ts` blocks of a page (not those marked `ts ignore`). */
async function examples(page: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, page));
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

for (const page of ["docs/formats.md", "docs/api.md"]) {
  Deno.test(`every example of ${page} runs from a checkout`, async () => {
    const found = await examples(page);
    ok(found.length > 0, `${page} has examples`);
    const dir = await Deno.makeTempDir();
    try {
      for (const [i, code] of found.entries()) {
        const script = join(dir, `example_${i}.ts`);
        await Deno.writeTextFile(script, code);
        const { code: status, stdout, stderr } = await new Deno.Command(
          Deno.execPath(),
          {
            args: ["run", "-A", "--config", join(ROOT, "deno.json"), script],
            cwd: ROOT,
            stdin: "null",
          },
        ).output();
        equal(status, 0, `${page} example ${i + 1}: ${decoder.decode(stderr)}`);
        ok(stdout.length > 0, `${page} example ${i + 1} prints what it shows`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

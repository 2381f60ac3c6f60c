/**
 * The npm package `deno pack` builds: no warning but the one Deno gives for
 * every private module (denoland/deno#36829), complete declarations for
 * every entry, and only the core's needs in `dependencies`.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./npm_package.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const config = JSON.parse(await Deno.readTextFile(join(REPO, "deno.json")));
/** What `deno pack` prints for a module no public type refers to. */
const PRIVATE_MODULE =
  /^Could not generate types for 'file:\/\/[^']+'\. Types will not be included for this module\.$/;
const PROGRESS =
  /^(Packing @x\/repo-fs|Check \S+|\d+ (modules|assets) collected|✓ .*)$/;

Deno.test("deno pack: no warning but Deno's for private modules, every declaration an entry needs shipped, no Redis client in dependencies", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const tarball = join(dir, "repo-fs.tgz");
    const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["pack", "--allow-dirty", "-o", tarball],
      cwd: REPO,
      env: { NO_COLOR: "1" },
    }).output();
    const lines = new TextDecoder().decode(stdout).concat(
      new TextDecoder().decode(stderr),
    ).split("\n").map((line) => line.trim()).filter((line) => line !== "");
    deepStrictEqual(
      lines.filter((line) =>
        !PROGRESS.test(line) && !PRIVATE_MODULE.test(line)
      ),
      [],
    );
    await run("tar", ["-xzf", tarball, "-C", dir]);
    const root = join(dir, "package");
    const manifest = JSON.parse(
      await Deno.readTextFile(join(root, "package.json")),
    );
    deepStrictEqual(
      Object.keys(manifest.dependencies).sort(),
      ["fzstd", "geotiff", "hyparquet", "hyparquet-compressors", "zarrita"],
      "the core's and the formats' readers; no Redis client",
    );
    deepStrictEqual(
      Object.keys(manifest.exports).sort(),
      Object.keys(config.exports).sort(),
    );
    const needed = await declarationsNeeded(
      root,
      Object.values(manifest.exports).map((entry) =>
        (entry as { types: string }).types
      ),
    );
    ok(needed.has("src/fleet/redis_coordinator.d.ts"), [...needed].join());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every declaration file reachable from `entries` by relative imports, as paths below `root`; a missing one throws. */
async function declarationsNeeded(
  root: string,
  entries: string[],
): Promise<Set<string>> {
  const seen = new Set<string>();
  const pending = entries.map((entry) => entry.replace(/^\.\//, ""));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await Deno.readTextFile(join(root, file));
    for (const [, specifier] of text.matchAll(/from "(\.[^"]+)\.js"/g)) {
      pending.push(
        new URL(`${specifier}.d.ts`, `file:///${file}`).pathname.slice(1),
      );
    }
  }
  return seen;
}

/**
 * `deno bundle` for the browser: ES modules and the chunks they share, the
 * npm packages included from the local cache. The explorer's build and the
 * browser demo both bundle through it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";

/** The repository's root, where `deno.json` is. */
export const ROOT = new URL("../", import.meta.url);

/**
 * Bundles `entries` (paths from the repository's root) into `outDir`, each
 * as the `.js` of its name beside their shared chunks; a failure says what
 * `deno bundle` printed.
 */
export async function bundleForBrowser(
  entries: string[],
  outDir: string,
  options: { minify?: boolean } = {},
): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "browser",
      "--code-splitting",
      ...(options.minify ? ["--minify"] : []),
      "--outdir",
      outDir,
      ...entries.map((entry) => fileURLToPath(new URL(entry, ROOT))),
    ],
    cwd: fileURLToPath(ROOT),
    stdin: "null",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  if (code !== 0) {
    throw new Error(
      `deno bundle failed (exit ${code}):\n${new TextDecoder().decode(stderr)}`,
    );
  }
}

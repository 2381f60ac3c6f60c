/**
 * `deno task build:explorer`: the explorer as a static site in
 * `dist/explorer/` (or the folder given): `index.html`, `main.js`, the pool's
 * `worker.js` and the chunks they share, for any static host.
 *
 *     deno task build:explorer [-- OUT_DIR]
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { bundleForBrowser, ROOT } from "./browser_bundle.ts";

/** Where `deno task build:explorer` writes the site. */
export const EXPLORER_DIST = fileURLToPath(new URL("dist/explorer", ROOT));

/** Bundles the page and its worker into `outDir` and copies the page beside them. */
export async function buildExplorer(outDir: string): Promise<void> {
  await Deno.mkdir(outDir, { recursive: true });
  await bundleForBrowser(["explorer/main.ts", "explorer/worker.ts"], outDir, {
    minify: true,
  });
  await Deno.copyFile(
    new URL("explorer/index.html", ROOT),
    `${outDir}/index.html`,
  );
}

if (import.meta.main) {
  const out = Deno.args.find((arg) => arg !== "--") ?? EXPLORER_DIST;
  await buildExplorer(out);
  console.log(
    `The explorer is in ${out}: serve that folder from any static host.`,
  );
}

/**
 * Builds the browser demo's scripts with `deno bundle --platform browser
 * --code-splitting`: the demo page, the test harness page and the pool's
 * worker, as ES modules and the chunks they share (the npm `zarrita`
 * included, from the local npm cache). Code splitting keeps what is loaded
 * only when needed (the code that writes downloads, with its `node:`
 * imports; zarrita's rarer codecs) in chunks of its own, which a page loads
 * only if it calls them.
 *
 * @module
 */

import { bundleForBrowser } from "../../explorer/browser_bundle.ts";

/** The entry points, bundled from the `.ts` of the same name in this folder. */
export const ENTRIES = ["page.js", "harness.js", "worker.js"] as const;

/**
 * Bundles {@linkcode ENTRIES} into `outDir`, beside their chunks; a failure
 * says what `deno bundle` printed.
 *
 * @example
 * ```ts ignore
 * import { bundleDemo } from "./bundle.ts";
 * const dir = await Deno.makeTempDir();
 * await bundleDemo(dir); // dir/page.js, dir/harness.js, dir/worker.js, dir/chunk-….js
 * ```
 *
 * @param outDir an existing directory to write the scripts into
 */
export async function bundleDemo(outDir: string): Promise<void> {
  await bundleForBrowser(
    ENTRIES.map((name) => `demo/browser/${name.replace(/\.js$/, ".ts")}`),
    outDir,
  );
}

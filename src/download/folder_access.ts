/**
 * Whether a download may write into a folder, asked before any byte is
 * fetched: in Deno, read and write permission for it (a rename and the
 * removal of a partial file need both), named by the flag that grants
 * them; the folder and its parents are created when missing.
 *
 * @module
 */

import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";

/** {@linkcode prepareFolder} for the folder a file is written to. */
export async function prepareFolderOf(target: string): Promise<void> {
  await prepareFolder(dirname(target));
}

/**
 * Creates `dir` (and its parents) when missing, after checking that this
 * process may read and write in it.
 * @throws {Error} whose message starts with the flags to add (`--allow-read=DIR`), or says why the folder cannot be made
 */
export async function prepareFolder(dir: string): Promise<void> {
  checkPermissions(dir);
  await mkdir(dir, { recursive: true });
}

/** Throws naming the `--allow-…` flags a download into `dir` lacks. */
export function checkPermissions(dir: string): void {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  if (deno === undefined) return;
  const missing = (["read", "write"] as const).filter((name) => {
    const descriptor = { name, path: dir };
    const { state } = deno.permissions.querySync(descriptor);
    return state !== "granted" &&
      (state === "denied" ||
        deno.permissions.requestSync(descriptor).state !== "granted");
  });
  if (missing.length === 0) return;
  throw new Deno.errors.NotCapable(
    `${
      missing.map((name) => `--allow-${name}=${dir}`).join(" ")
    } needed: a download into ${dir} writes a partial file, renames it and removes it if it fails, which needs ${
      missing.join(" and ")
    } permission there`,
  );
}

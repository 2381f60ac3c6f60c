/**
 * What an interrupted `get` ends with: one line saying how far it got, and
 * which hidden partial files hold the bytes of the files not finished
 * (for `get --resume` to go on from; a plain `get` removes them).
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { resumeName } from "../download/file_download.ts";
import type { FileInfo } from "../base/types.ts";
import type { Outcome } from "./download.ts";
import { displayPath } from "./io.ts";
import { lstatOrNull, type OutputRoot } from "./safe_path.ts";

/**
 * The hidden partial files (as below `outDir`, as given) that hold the kept
 * bytes of the files not finished.
 */
export async function keptPartials(
  root: OutputRoot,
  outDir: string,
  files: FileInfo[],
  outcomes: Outcome[],
): Promise<string[]> {
  const finished = new Set(outcomes.map((outcome) => outcome.path));
  const kept = await Promise.all(
    files.filter((file) => !finished.has(file.name)).map(async (file) => {
      try {
        const [partial] = resumeName(root.target(file.name));
        if (!(await lstatOrNull(partial))?.isFile) return undefined;
        return join(outDir, dirname(file.name), basename(partial));
      } catch {
        return undefined;
      }
    }),
  );
  return kept.filter((path) => path !== undefined);
}

/** The one line an interrupted run ends with. */
export function interruptedLine(
  outcomes: Outcome[],
  selected: number,
  kept: string[],
): string {
  const downloaded = outcomes.filter((o) => o.status === "downloaded").length;
  const skipped = outcomes.filter((o) => o.status === "skipped").length;
  const more = kept.length > 1 ? ` and ${kept.length - 1} more` : "";
  return [
    `interrupted: ${downloaded} of ${selected} files downloaded`,
    skipped > 0 ? ` (${skipped} already complete)` : "",
    kept.length === 0
      ? "; files not finished were removed; run again with --resume"
      : `; ${kept.length} partly kept, hidden (${
        displayPath(kept[0])
      }${more}): get --resume goes on from ${
        kept.length === 1 ? "it" : "them"
      }, a plain get removes ${kept.length === 1 ? "it" : "them"}`,
  ].join("");
}

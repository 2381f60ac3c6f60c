// What a `get` stopped by SIGINT or SIGTERM leaves in its output folder,
// checked the same way by every test that stops one.
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { basename, join } from "node:path";
import { filesBelow } from "./support.ts";

/** Marks every name a download writes before the file is complete. */
export const PARTIAL_MARK = ".repo-fs-partial-";
const KEPT = /^\..+\.repo-fs-partial-resume$/;

/**
 * Checks `out` after an interrupted `get` of `files` (dataset path to
 * bytes): every file under its real name holds its bytes; every other file
 * is a hidden kept partial (`.NAME.repo-fs-partial-resume`) with its
 * record beside it, nothing else; and the last line of `stderr` counts
 * the downloaded files and the kept partials, names one of them, and says
 * how `get --resume` and a plain `get` treat them.
 * @returns the complete files and the kept partials, as paths below `out`
 */
export async function interruptedGetLeft(
  out: string,
  files: Record<string, Uint8Array>,
  stderr: string,
): Promise<{ complete: string[]; kept: string[] }> {
  const all = await filesBelow(out);
  const complete = all.filter((path) => !path.includes(PARTIAL_MARK));
  for (const path of complete) {
    deepStrictEqual(await Deno.readFile(join(out, path)), files[path], path);
  }
  const kept = all.filter((path) => KEPT.test(basename(path)));
  deepStrictEqual(
    all.filter((path) => path.includes(PARTIAL_MARK)),
    kept.flatMap((path) => [path, `${path}.json`]).sort(),
    "only kept partials, each with its record",
  );
  const last = stderr.trimEnd().split("\n").at(-1)!;
  const said = `repo-fs: interrupted: ${complete.length} of ${
    Object.keys(files).length
  } files downloaded`;
  if (kept.length === 0) {
    equal(
      last,
      `${said}; files not finished were removed; run again with --resume`,
    );
    return { complete, kept };
  }
  const them = kept.length === 1 ? "it" : "them";
  const more = kept.length === 1 ? "" : ` and ${kept.length - 1} more`;
  const named = last.match(/ partly kept, hidden \((.+?)( and \d+ more)?\)/)
    ?.[1];
  ok(
    named !== undefined &&
      kept.some((path) => join(out, path) === named),
    `${last} names a kept partial of ${kept.join(", ")}`,
  );
  equal(
    last,
    `${said}; ${kept.length} partly kept, hidden (${named}${more}): get --resume goes on from ${them}, a plain get removes ${them}`,
  );
  return { complete, kept };
}

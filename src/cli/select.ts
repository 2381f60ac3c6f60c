/**
 * Which files `get` fetches: the files matching its patterns (a directory
 * matched means every file below it), plus the listing entries the routing
 * table left out (`../x`, clashes) that the patterns would have matched, so
 * that the user hears about them.
 *
 * @module
 */

import { compileGlob } from "../tree/glob.ts";
import { normalizePath } from "../tree/paths.ts";
import type { Browsable } from "./archive_path.ts";
import type { FileInfo } from "../base/types.ts";

/** A file `get` will not fetch, and why. */
export interface Refusal {
  /** The path as the listing gives it. */
  path: string;
  /** Why it is refused. */
  reason: string;
}

/** The outcome of matching the patterns against the dataset. */
export interface Selection {
  /** Matching files, each once, sorted by path. */
  files: FileInfo[];
  /** Listing entries left out of the tree that a pattern covers. */
  refused: Refusal[];
  /** Patterns that matched nothing at all. */
  unmatched: string[];
}

/**
 * Matches `get`'s patterns. A pattern is a glob (`*`, `?`, `[...]`, `**`)
 * or a plain path; each matched directory stands for all files below it;
 * `/` (or an empty pattern) is the whole dataset. A bad pattern (a `..`
 * segment, `**` inside a name) is a `TypeError`.
 */
export async function selectFiles(
  fs: Browsable,
  patterns: readonly string[],
): Promise<Selection> {
  const chosen = new Map<string, FileInfo>();
  const tests: { pattern: string; covers: Cover; found: boolean }[] = [];
  /** Every path below a directory already expanded. */
  const covered = new Set<string>();
  for (const pattern of patterns) {
    const covers = coverage(pattern);
    const keys = normalizePath(pattern) === "" ? [""] : await fs.glob(pattern);
    tests.push({ pattern, covers, found: keys.length > 0 });
    for (const key of keys) {
      if (covered.has(key)) continue;
      const entry = await fs.info(key);
      if (entry.type === "file") {
        chosen.set(key, entry);
        continue;
      }
      for (const path of await fs.find(key, { withdirs: true })) {
        covered.add(path);
        const below = await fs.info(path);
        if (below.type === "file") chosen.set(path, below);
      }
    }
  }
  const rejected = (await fs.rejectedEntries())
    .filter((entry) => tests.some((test) => test.covers(entry.path)));
  return {
    files: [...chosen.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    ),
    refused: rejected.map((entry) => ({
      path: entry.path,
      reason:
        `listing entry ${entry.id} was left out of the tree: ${entry.reason}`,
    })),
    unmatched: tests
      .filter((test) =>
        !test.found && !rejected.some((entry) => test.covers(entry.path))
      )
      .map((test) => test.pattern),
  };
}

/** Whether a pattern covers a listed path. */
type Cover = (path: string) => boolean;

/**
 * A test of whether a pattern covers a listed path that may not be a valid
 * key (`../x`): the path, or any directory on its way, matches the pattern.
 */
function coverage(pattern: string): Cover {
  if (normalizePath(pattern) === "") return () => true;
  const glob = compileGlob(pattern);
  return (path) => {
    const clean = path.split("/").filter((s) => s !== "").join("/");
    for (
      let end = clean.indexOf("/");
      end !== -1;
      end = clean.indexOf("/", end + 1)
    ) {
      if (glob.matches(clean.slice(0, end), true)) return true;
    }
    return clean !== "" && glob.matches(clean, false);
  };
}

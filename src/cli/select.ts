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
import type { RepoFs } from "../repo_fs.ts";
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
  fs: RepoFs,
  patterns: readonly string[],
): Promise<Selection> {
  const chosen = new Map<string, FileInfo>();
  const tests: { pattern: string; covers: Cover; found: boolean }[] = [];
  for (const pattern of patterns) {
    const covers = coverage(pattern);
    const keys = normalizePath(pattern) === "" ? [""] : await fs.glob(pattern);
    tests.push({ pattern, covers, found: keys.length > 0 });
    const expanded = new Set<string>();
    for (const key of keys) {
      if (hasAncestorIn(key, expanded)) continue;
      const entry = await fs.info(key);
      if (entry.type === "file") {
        chosen.set(key, entry);
        continue;
      }
      expanded.add(key);
      for (const path of await fs.find(key)) {
        chosen.set(path, await fs.info(path));
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
    const segments = path.split("/").filter((s) => s !== "");
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join("/");
      if (glob.matches(prefix, i < segments.length)) return true;
    }
    return false;
  };
}

/** Whether a directory in `dirs` holds `key` (at any depth). */
function hasAncestorIn(key: string, dirs: Set<string>): boolean {
  for (
    let slash = key.lastIndexOf("/");
    slash > 0;
    slash = key.lastIndexOf("/", slash - 1)
  ) {
    if (dirs.has(key.slice(0, slash))) return true;
  }
  return false;
}

/**
 * The one way every command says that a path or pattern matched nothing:
 * a {@linkcode NothingFoundError}, which the entry prints as one line on
 * stderr with exit status 1. When `**` would have found matches below the
 * pattern's depth, the line says how many and how to ask for them; else a
 * pattern says what matches inside the dataset's zip archives, and a path
 * offers the near names of the folder that would hold it.
 *
 * @module
 */

import { NotFoundError } from "../base/errors.ts";
import { normalizePath } from "../tree/paths.ts";
import type { Browsable } from "./archive_path.ts";
import { quotePath } from "./io.ts";
import { nearPaths } from "./near_names.ts";
import { archiveMatches } from "./archive_matches.ts";

/** A path or pattern matched nothing in the dataset. */
export class NothingFoundError extends Error {
  /**
   * @param message the one line to print
   */
  constructor(message: string) {
    super(message);
    this.name = "NothingFoundError";
  }
}

/**
 * The error for `arg`, a path (`ls`, `tree`, `find`, `info`, `cat`) or a
 * pattern (`glob`, `get`), with the `**` hint when it applies:
 * `no file matches "*.nc" at the top level; 12 match "**\/*.nc"`; else
 * `did you mean "tables"?` for a path, or what matches inside zip
 * archives for a pattern.
 */
export async function nothingFound(
  fs: Pick<Browsable, "glob" | "ls" | "exists">,
  arg: string,
  kind: "path" | "pattern",
): Promise<NothingFoundError> {
  const said = kind === "path"
    ? `No such file or directory in the dataset: ${quotePath(arg)}`
    : `no file matches ${quotePath(arg)}`;
  const hint = await deeperHint(fs, arg) ||
    (kind === "path" ? await nearHint(fs, arg) : await archiveMatches(fs, arg));
  return new NothingFoundError(`${said}${hint}`);
}

/** `; did you mean "tables"?`, or `""` when no name is near. */
async function nearHint(
  fs: Pick<Browsable, "ls" | "exists">,
  path: string,
): Promise<string> {
  const near = await nearPaths(fs, path);
  return near.length === 0
    ? ""
    : `; did you mean ${near.map(quotePath).join(" or ")}?`;
}

/**
 * `promise`, with a missing `path` (a {@linkcode NotFoundError}) made the
 * path's {@linkcode NothingFoundError}.
 */
export async function orNothingFound<T>(
  fs: Pick<Browsable, "glob" | "ls" | "exists">,
  path: string,
  promise: Promise<T>,
): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof NotFoundError) {
      throw await nothingFound(fs, path, "path");
    }
    throw error;
  }
}

/** ` at the top level; 12 match "**\/*.nc"`, or `""` when `**` finds nothing more. */
async function deeperHint(
  fs: Pick<Browsable, "glob">,
  arg: string,
): Promise<string> {
  let pattern: string;
  try {
    pattern = normalizePath(arg);
  } catch {
    return "";
  }
  if (pattern === "" || pattern.includes("**")) return "";
  const slash = pattern.lastIndexOf("/");
  const deeper = slash === -1
    ? `**/${pattern}`
    : `${pattern.slice(0, slash)}/**/${pattern.slice(slash + 1)}`;
  const found = await fs.glob(deeper).catch(() => []);
  if (found.length === 0) return "";
  const where = slash === -1 ? "at the top level" : "at that depth";
  return ` ${where}; ${found.length} match${found.length === 1 ? "es" : ""} ${
    quotePath(deeper)
  }`;
}

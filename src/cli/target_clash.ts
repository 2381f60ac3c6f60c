/**
 * What `get` checks before it downloads a byte: a listed file whose place
 * in the output folder is a directory, or whose folder's place is a file
 * (say, left there by an earlier run of another version), cannot be
 * written, and would otherwise fail only once downloaded.
 *
 * @module
 */

import { dirname } from "node:path";
import type { FileInfo } from "../base/types.ts";
import { type OutputRoot, UnsafePathError } from "./safe_path.ts";

/**
 * The files of `files` that clash with what is on disk below `root`, each
 * with one line naming the dataset path and the local one. A path `root`
 * refuses is left to {@linkcode OutputRoot.prepare}, which says why.
 */
export async function targetClashes(
  root: OutputRoot,
  files: readonly FileInfo[],
): Promise<Map<FileInfo, string>> {
  const clashes = new Map<FileInfo, string>();
  const kinds = new Map<string, Kind>();
  const kind = async (path: string): Promise<Kind> => {
    let known = kinds.get(path);
    if (known === undefined) {
      known = await kindOf(path);
      kinds.set(path, known);
    }
    return known;
  };
  for (const file of files) {
    let target: string;
    try {
      target = root.target(file.name);
    } catch (error) {
      if (error instanceof UnsafePathError) continue;
      throw error;
    }
    const clash = await folderClash(root.path, target, kind) ??
      ((await kind(target)) === "directory"
        ? `it is a file in the dataset, but ${target} is a directory`
        : undefined);
    if (clash !== undefined) clashes.set(file, clash);
  }
  return clashes;
}

type Kind = "directory" | "other" | "absent";

/** The first folder on the way from `top` to `target` that is not one on disk. */
async function folderClash(
  top: string,
  target: string,
  kind: (path: string) => Promise<Kind>,
): Promise<string | undefined> {
  const folders: string[] = [];
  for (let dir = dirname(target); dir !== top; dir = dirname(dir)) {
    folders.push(dir);
  }
  for (const dir of folders.reverse()) {
    const found = await kind(dir);
    if (found === "absent") return undefined;
    if (found === "other") {
      return `its folder is a directory in the dataset, but ${dir} is a file`;
    }
  }
  return undefined;
}

/**
 * What is at `path`, symlinks followed; what cannot be looked at counts as
 * absent, and writing it says why.
 */
async function kindOf(path: string): Promise<Kind> {
  try {
    return (await Deno.stat(path)).isDirectory ? "directory" : "other";
  } catch {
    return "absent";
  }
}

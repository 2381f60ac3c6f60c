/**
 * Entries as the command line prints them in JSON: a directory has no
 * `size` there, as it has none (`-`) in text; `info` gives a directory's
 * file count and total bytes in both.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import type { Browsable } from "./archive_path.ts";

/** What a directory holds at any depth: its files and their listed bytes. */
export interface DirectoryTotals {
  /** Files below it. */
  files: number;
  /** Their listed sizes added up (a file with none counts 0). */
  bytes: number;
}

/** `entry` for JSON output: without `size` when it is a directory. */
export function entryJson(entry: FileInfo): Partial<FileInfo> {
  if (entry.type !== "directory") return entry;
  const { size: _size, ...rest } = entry;
  return rest;
}

/** The files below directory `path` and their listed bytes. */
export async function directoryTotals(
  fs: Pick<Browsable, "find" | "info">,
  path: string,
): Promise<DirectoryTotals> {
  const files = await fs.find(path);
  let bytes = 0;
  for (const file of files) bytes += (await fs.info(file)).size ?? 0;
  return { files: files.length, bytes };
}

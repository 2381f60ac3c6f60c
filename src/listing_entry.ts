/**
 * One entry of a dataset version's file list, as real installations send
 * it, turned into a {@linkcode ListedFile}.
 *
 * @module
 */

import { RepoProtocolError } from "./errors.ts";
import type { ListedFile } from "./routing_table.ts";

/**
 * The listed files of a version's `files` array, checked one by one as
 * they are taken.
 *
 * @example
 * ```ts
 * import { listedFiles } from "./listing_entry.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const entries = [{ directoryLabel: "d", dataFile: { id: 7, filename: "a.nc", filesize: 3 } }];
 * deepStrictEqual([...listedFiles(entries, "https://r.example/api")], [{ path: "d/a.nc", id: 7, size: 3 }]);
 * ```
 */
export function* listedFiles(
  entries: unknown[],
  url: string,
): Iterable<ListedFile> {
  for (const entry of entries) yield listedFile(entry, url);
}

/**
 * The value of `name` in an answer object; a missing one is a
 * {@linkcode RepoProtocolError}.
 *
 * @example
 * ```ts
 * import { field } from "./listing_entry.ts";
 * field({ data: [] }, "data", "https://r.example/api"); // []
 * ```
 */
export function field(object: unknown, name: string, url: string): unknown {
  const value = typeof object === "object" && object !== null
    ? (object as Record<string, unknown>)[name]
    : undefined;
  if (value === undefined || value === null) {
    throw new RepoProtocolError(
      `the repository's answer has no "${name}"`,
      url,
    );
  }
  return value;
}

function listedFile(entry: unknown, url: string): ListedFile {
  const dataFile = field(entry, "dataFile", url) as Record<string, unknown>;
  const { id, filename, filesize, contentType, md5 } = dataFile;
  if (!Number.isSafeInteger(id)) {
    throw new RepoProtocolError(
      `a file entry has a non-integer id ${JSON.stringify(id)}`,
      url,
    );
  }
  if (typeof filename !== "string") {
    throw new RepoProtocolError(`file ${id} has no filename`, url);
  }
  const label = (entry as { directoryLabel?: unknown }).directoryLabel;
  if (label !== undefined && label !== null && typeof label !== "string") {
    throw new RepoProtocolError(
      `file ${id} has a non-string directoryLabel`,
      url,
    );
  }
  const file: ListedFile = {
    path: label ? `${label}/${filename}` : filename,
    id: id as number,
    size: typeof filesize === "number" && filesize >= 0 ? filesize : null,
  };
  if (typeof contentType === "string") file.contentType = contentType;
  if (typeof md5 === "string") file.md5 = md5;
  if (dataFile.tabularData === true || dataFile.originalFileFormat) {
    file.tabular = true;
  }
  return file;
}

/**
 * One entry of a dataset version's file list, as real installations send
 * it, turned into a {@linkcode ListedFile}.
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";
import type { ListedFile } from "../base/listed_file.ts";
import type { Checksum } from "../base/types.ts";

/**
 * The listed files of a version's `files` array, checked one by one as
 * they are taken.
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

/**
 * Whether an embargo that ends on `dateAvailable` (`YYYY-MM-DD`, the first
 * day the file is readable) still holds on the day of `now` (UTC).
 */
export function embargoActive(
  dateAvailable: string,
  now = new Date(),
): boolean {
  return dateAvailable.slice(0, 10) > now.toISOString().slice(0, 10);
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
  const pathOf = (name: string) => label ? `${label}/${name}` : name;
  const file: ListedFile = {
    path: pathOf(filename),
    id: id as number,
    size: sizeOf(filesize),
  };
  if (typeof contentType === "string") file.contentType = contentType;
  if (typeof md5 === "string") file.md5 = md5;
  const checksum = checksumOf(dataFile.checksum);
  if (checksum !== undefined) file.checksum = checksum;
  if (dataFile.tabularData === true || dataFile.originalFileFormat) {
    file.tabular = true;
    const { originalFileName, originalFileSize, originalFileFormat } = dataFile;
    if (typeof originalFileName === "string" && originalFileName !== "") {
      file.original = {
        path: pathOf(originalFileName),
        size: sizeOf(originalFileSize),
      };
      if (typeof originalFileFormat === "string") {
        file.original.contentType = originalFileFormat;
      }
    }
  }
  if ((entry as { restricted?: unknown }).restricted === true) {
    file.restricted = true;
  }
  const until = (dataFile.embargo as { dateAvailable?: unknown } | undefined)
    ?.dateAvailable;
  if (typeof until === "string" && embargoActive(until)) {
    file.restricted = true;
    file.embargoedUntil = until;
  }
  return file;
}

/**
 * A listed size, a number or a string of digits (`"5"`), or `null` when
 * there is none that can be a byte count (negative, fractional, or too big
 * to count exactly, as `1e400` parses to `Infinity`): arithmetic on it
 * would misplace ranges from the end.
 */
function sizeOf(value: unknown): number | null {
  const size = typeof value === "string" && /^\d+$/.test(value.trim())
    ? Number(value)
    : value;
  return Number.isSafeInteger(size) && (size as number) >= 0
    ? size as number
    : null;
}

/** A listed `checksum`; one without a string type and value is left out. */
function checksumOf(value: unknown): Checksum | undefined {
  const { type, value: digest } = (value ?? {}) as Record<string, unknown>;
  return typeof type === "string" && typeof digest === "string" && digest !== ""
    ? { type, value: digest }
    : undefined;
}

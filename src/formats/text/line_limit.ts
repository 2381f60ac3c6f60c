/**
 * The longest line the text readers hold: past it a line is a refusal
 * naming the limit, not a buffer that grows with the file.
 *
 * @module
 */

import { FormatError } from "../../base/format_error.ts";

/** The default `maxLineBytes`: 64 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** `maxLineBytes` as given, checked; the default when not given. */
export function maxLineBytes(given: number | undefined): number {
  if (given === undefined) return DEFAULT_MAX_LINE_BYTES;
  if (!Number.isSafeInteger(given) || given < 1) {
    throw new TypeError(`maxLineBytes must be an integer >= 1, got ${given}`);
  }
  return given;
}

/** The refusal of a line of `path` longer than `limit` bytes. */
export function lineTooLong(path: string, limit: number): FormatError {
  return new FormatError(
    path,
    `a line is longer than ${limit} bytes (the maxLineBytes limit); raise maxLineBytes (the command line's --max-line-bytes) to read it`,
  );
}

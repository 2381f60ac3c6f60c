/**
 * The error of a zip archive that cannot be read as asked.
 *
 * @module
 */

import { clip } from "../../base/errors.ts";
import { FormatError } from "../../base/format_error.ts";

/**
 * A zip archive, or a member of it, that is damaged, hostile (a local
 * header that disagrees with the central directory, overlapping members,
 * data decoding past its declared size) or uses what is not read here
 * (encryption, several disks, a compression method other than stored,
 * deflate, Deflate64 and Zstandard). The message names the archive, the
 * member when there is one, and the problem; `cause` holds the decoder's
 * own error.
 *
 * @example
 * ```ts
 * import { ZipFormatError } from "@x/repo-fs/zip";
 * import { strictEqual } from "node:assert/strict";
 * const err = new ZipFormatError("data.zip", "compression method 12 (bzip2) is not supported", "big.csv");
 * strictEqual(err.message, 'Zip archive "data.zip", member "big.csv": compression method 12 (bzip2) is not supported');
 * strictEqual(err.member, "big.csv");
 * ```
 */
export class ZipFormatError extends FormatError {
  /** The archive's path in its source. */
  readonly archive: string;
  /**
   * Makes the error.
   * @param archive the archive's path in its source
   * @param problem what is wrong
   * @param member the member concerned, if any
   * @param cause the failure this error explains
   */
  constructor(
    archive: string,
    problem: string,
    member?: string,
    cause?: unknown,
  ) {
    const where = member === undefined ? "" : `, member "${clip(member)}"`;
    super(archive, problem, {
      member,
      cause,
      message: `Zip archive "${clip(archive)}"${where}: ${problem}`,
    });
    this.name = "ZipFormatError";
    this.archive = archive;
  }
}

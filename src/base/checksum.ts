/**
 * Listed checksums and the hashes that check them: which checksum a file
 * has, and which `node:crypto` hash computes it.
 *
 * @module
 */

import type { Checksum, FileInfo } from "./types.ts";

/**
 * A hash repo-fs computes, by its `node:crypto` name.
 *
 * @example
 * ```ts
 * import type { ChecksumKind } from "./checksum.ts";
 * const kind: ChecksumKind = "sha256";
 * ```
 */
export type ChecksumKind = "md5" | "sha1" | "sha256" | "sha512";

const KINDS: Record<string, ChecksumKind> = {
  MD5: "md5",
  SHA1: "sha1",
  SHA256: "sha256",
  SHA512: "sha512",
};

/**
 * The hash that computes a checksum of the listed `type` (`MD5`, `SHA-1`,
 * `SHA-256`, `SHA-512`, in any case, with or without the dash);
 * `undefined` for a type repo-fs cannot compute.
 *
 * @example
 * ```ts
 * import { checksumKind } from "./checksum.ts";
 * import { equal } from "node:assert/strict";
 * equal(checksumKind("SHA-1"), "sha1");
 * equal(checksumKind("md5"), "md5");
 * equal(checksumKind("UNF"), undefined);
 * ```
 */
export function checksumKind(type: string): ChecksumKind | undefined {
  return KINDS[type.toUpperCase().replace("-", "")];
}

/**
 * The checksum a file is listed with: its `checksum`, else its `md5`.
 *
 * @example
 * ```ts
 * import { listedChecksum } from "./checksum.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * deepStrictEqual(
 *   listedChecksum({ md5: "900150983cd24fb0d6963f7d28e17f72" }),
 *   { type: "MD5", value: "900150983cd24fb0d6963f7d28e17f72" },
 * );
 * ```
 */
export function listedChecksum(
  file: Pick<FileInfo, "checksum" | "md5">,
): Checksum | undefined {
  if (file.checksum !== undefined) return file.checksum;
  return file.md5 === undefined ? undefined : { type: "MD5", value: file.md5 };
}

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
 * import { type ChecksumKind } from "@x/repo-fs";
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
 */
export function checksumKind(type: string): ChecksumKind | undefined {
  return KINDS[type.toUpperCase().replace("-", "")];
}

/** The checksum a file is listed with: its `checksum`, else its `md5`. */
export function listedChecksum(
  file: Pick<FileInfo, "checksum" | "md5">,
): Checksum | undefined {
  if (file.checksum !== undefined) return file.checksum;
  return file.md5 === undefined ? undefined : { type: "MD5", value: file.md5 };
}

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
 * import { type ChecksumKind, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.txt": { content: "abc", checksumType: "SHA-256" } },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const dir = await Deno.makeTempDir();
 * const { verified } = await fs.downloadToFile("a.txt", `${dir}/a.txt`);
 * strictEqual(verified, "sha256" satisfies ChecksumKind); // the listed SHA-256 held
 * await Deno.remove(dir, { recursive: true });
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

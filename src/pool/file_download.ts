/**
 * Downloading one dataset file to disk without leaving anything that looks
 * complete but is not: the bytes stream to a temporary name beside the
 * target, are hashed on the way with the listed checksum's algorithm (MD5,
 * SHA-1, SHA-256 or SHA-512), are checked against the listing, and only
 * then are renamed into place. A failure or an abort removes the temporary
 * file.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import {
  type ChecksumKind,
  checksumKind,
  listedChecksum,
} from "../base/checksum.ts";
import type { RepoFile } from "../repo_fs.ts";
import type { FileInfo } from "../base/types.ts";
import { writeAll } from "../base/write_all.ts";

/** Marks temporary files; no complete file carries it. */
export const PARTIAL_MARK = ".repo-fs-partial-";
/** Longest part of the real name kept in a temporary name, in UTF-8 bytes. */
const TEMP_NAME_BYTES = 96;
const encoder = new TextEncoder();

/**
 * How a downloaded file was checked: by its listed checksum (the hash that
 * matched: `md5`, `sha1`, `sha256`, `sha512`), by its size (no checksum
 * listed), or not at all (`none`: neither listed, a checksum of a type
 * repo-fs cannot compute, or an ingested tabular file whose served form
 * the listing does not describe).
 *
 * @example
 * ```ts
 * import type { Verification } from "./file_download.ts";
 * const checked: Verification = "sha256";
 * ```
 */
export type Verification = ChecksumKind | "size" | "none";

/**
 * What {@linkcode downloadToFile} reports.
 *
 * @example
 * ```ts
 * import type { Downloaded } from "./file_download.ts";
 * const done: Downloaded = { bytes: 3, verified: "sha1" };
 * ```
 */
export interface Downloaded {
  /** Bytes written. */
  bytes: number;
  /** How they were checked. */
  verified: Verification;
}

/**
 * Options of a download.
 *
 * @example
 * ```ts
 * import type { DownloadToFileOptions } from "./file_download.ts";
 * const options: DownloadToFileOptions = { onBytes: (n) => console.log(n) };
 * ```
 */
export interface DownloadToFileOptions {
  /** Stops the download; the temporary file is removed. */
  signal?: AbortSignal;
  /** Called with each chunk's size as it is written. */
  onBytes?: (bytes: number) => void;
  /**
   * The temporary name to write to, from {@linkcode temporaryName};
   * default a new one. A caller that may have to clean up after the
   * download itself (a pool whose worker is stuck) chooses it.
   */
  temporary?: string;
}

/**
 * A temporary name beside `target`: hidden, marked `.repo-fs-partial-`,
 * with 16 random hex digits, and short enough for any file system.
 *
 * @example
 * ```ts
 * import { temporaryName } from "./file_download.ts";
 * temporaryName("/out/data/a.csv"); // like "/out/data/.a.csv.repo-fs-partial-3f9c0a1b2c3d4e5f"
 * ```
 */
export function temporaryName(target: string): string {
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(8)),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  let kept = "";
  for (const char of basename(target)) {
    if (encoder.encode(kept + char).byteLength > TEMP_NAME_BYTES) break;
    kept += char;
  }
  return join(dirname(target), `.${kept}${PARTIAL_MARK}${random}`);
}

/**
 * Streams `opened` to a temporary name beside `target`, checks it against
 * the listing entry `file`, and renames it into place. `target` must be a
 * path the caller has checked is safe to write.
 *
 * @example
 * ```ts ignore
 * import { downloadToFile } from "./file_download.ts";
 * const info = await fs.info("data/a.csv");
 * const { bytes, verified } = await downloadToFile(await fs.open(info.name), info, "/out/data/a.csv");
 * ```
 */
export async function downloadToFile(
  opened: RepoFile,
  file: FileInfo,
  target: string,
  options: DownloadToFileOptions = {},
): Promise<Downloaded> {
  const { signal, onBytes, temporary: temp = temporaryName(target) } = options;
  signal?.throwIfAborted();
  const handle = await Deno.open(temp, { write: true, createNew: true });
  let open = true;
  let renamed = false;
  try {
    const hash = checksumHash(file);
    let received = 0;
    for await (const chunk of opened.stream({ signal })) {
      hash?.update(chunk);
      await writeAll(handle, chunk);
      received += chunk.byteLength;
      onBytes?.(chunk.byteLength);
    }
    handle.close();
    open = false;
    const verified = verifyDownload(file, received, hash?.digest("hex"));
    await Deno.rename(temp, target);
    renamed = true;
    return { bytes: received, verified };
  } finally {
    if (open) handle.close();
    if (!renamed) await removeTemporary(temp);
  }
}

/**
 * Removes a temporary file of a download; one already gone is fine.
 *
 * @example
 * ```ts
 * import { removeTemporary, temporaryName } from "./file_download.ts";
 * await removeTemporary(temporaryName("/no/such/dir/a.csv")); // nothing to do
 * ```
 *
 * @throws {Error} naming the file when it exists and cannot be removed
 */
export async function removeTemporary(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    throw new Error(`could not remove the temporary file ${path}`, {
      cause: error,
    });
  }
}

/**
 * A hash of the algorithm of `file`'s listed checksum; `undefined` when none
 * is listed or repo-fs cannot compute its type.
 *
 * @example
 * ```ts
 * import { checksumHash } from "./file_download.ts";
 * import { equal } from "node:assert/strict";
 * const file = { name: "a", type: "file" as const, size: 3, checksum: { type: "SHA-1", value: "" } };
 * equal(checksumHash(file)?.update("abc").digest("hex"), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * equal(checksumHash({ ...file, checksum: { type: "UNF", value: "x" } }), undefined);
 * ```
 */
export function checksumHash(file: FileInfo): Hash | undefined {
  const listed = listedChecksum(file);
  const kind = listed && checksumKind(listed.type);
  return kind && createHash(kind);
}

/**
 * Checks `received` bytes whose {@linkcode checksumHash} gave `digest` (hex)
 * against the listing entry `file`, and says how they were checked; throws
 * when they cannot be the listed file. Only an ingested tabular file may be
 * served longer than listed (a header line the listing does not count), and
 * its listed checksum is of the original upload: a mismatch there leaves it
 * unverified rather than wrong.
 *
 * @example
 * ```ts
 * import { verifyDownload } from "./file_download.ts";
 * import { equal, throws } from "node:assert/strict";
 * const file = { name: "a", type: "file" as const, size: 3, checksum: { type: "SHA-1", value: "a9993e364706816aba3e25717850c26c9cd0d89d" } };
 * equal(verifyDownload(file, 3, "a9993e364706816aba3e25717850c26c9cd0d89d"), "sha1");
 * throws(() => verifyDownload(file, 3, "0".repeat(40)), /^Error: SHA-1 mismatch: the listing says a999.*, the bytes received have 0000.*; not kept$/);
 * equal(verifyDownload({ ...file, checksum: undefined }, 3, undefined), "size");
 * ```
 */
export function verifyDownload(
  file: FileInfo,
  received: number,
  digest: string | undefined,
): Verification {
  const listed = file.size;
  if (listed !== null && received < listed) {
    throw new Error(`short download: ${received} of ${listed} listed bytes`);
  }
  if (listed !== null && received > listed && !file.tabular) {
    throw new Error(
      `long download: ${received} bytes received, the listing says ${listed}; not kept`,
    );
  }
  const checksum = listedChecksum(file);
  if (checksum !== undefined) {
    const kind = checksumKind(checksum.type);
    if (kind === undefined || digest === undefined) return "none";
    if (digest === checksum.value.toLowerCase()) return kind;
    if (file.tabular) return "none";
    throw new Error(
      `${checksum.type} mismatch: the listing says ${checksum.value}, the bytes received have ${digest}; not kept`,
    );
  }
  return listed === null || received > listed ? "none" : "size";
}

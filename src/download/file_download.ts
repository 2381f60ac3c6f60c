/**
 * Downloading one dataset file to disk without leaving anything that looks
 * complete but is not: the bytes stream to a temporary name beside the
 * target, are hashed on the way with the listed checksum's algorithm (MD5,
 * SHA-1, SHA-256 or SHA-512), are checked against the listing, and only
 * then are renamed into place. Missing folders are made; permissions are
 * checked before any byte is fetched. A failure or an abort removes the
 * temporary file, and an error says so when it cannot. It writes with `node:fs/promises`, which Deno, Node and Bun have.
 *
 * @module
 */

import { createHash, type Hash } from "node:crypto";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import {
  type ChecksumKind,
  checksumKind,
  listedChecksum,
} from "../base/checksum.ts";
import type { RepoFile } from "../repo_file.ts";
import type { FileInfo } from "../base/types.ts";
import { writeAll } from "../base/write_all.ts";
import { errorMessage } from "../base/errors.ts";
import { prepareFolderOf } from "./folder_access.ts";

/** Marks temporary files; no complete file carries it. */
export const PARTIAL_MARK = ".repo-fs-partial-";
/** Longest part of the real name kept in a temporary name, in UTF-8 bytes. */
const TEMP_NAME_BYTES = 96;
const encoder = new TextEncoder();

/**
 * How a downloaded file was checked: by its listed checksum (the hash that
 * matched: `md5`, `sha1`, `sha256`, `sha512`), by the CRC-32 of a zip
 * member (`crc32`), by its size (no checksum listed), or not at all (`none`: neither listed, a checksum of a type
 * repo-fs cannot compute, or an ingested tabular file whose served form
 * the listing does not describe).
 *
 * @example
 * ```ts
 * import { RepoFs, RepoFsPool, type Verification } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.txt": { content: "abc", checksum: null } } });
 * await using pool = new RepoFsPool(new RepoFs({ host: emu.host, pid: emu.pid }), { workers: 1 });
 * const dir = await Deno.makeTempDir();
 * const checked: Verification = (await pool.downloadToFile("a.txt", `${dir}/a.txt`)).verified;
 * strictEqual(checked, "size"); // no checksum listed: only the size was checked
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export type Verification = ChecksumKind | "crc32" | "size" | "none";

/**
 * What {@linkcode downloadToFile} reports.
 *
 * @example
 * ```ts
 * import { type Downloaded, RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({
 *   files: { "a.csv": { content: "x,y\n", checksumType: "SHA-1" } },
 * });
 * await using pool = new RepoFsPool(new RepoFs({ host: emu.host, pid: emu.pid }), { workers: 1 });
 * const dir = await Deno.makeTempDir();
 * const done: Downloaded = await pool.downloadToFile("a.csv", `${dir}/a.csv`);
 * deepStrictEqual(done, { bytes: 4, verified: "sha1" });
 * await Deno.remove(dir, { recursive: true });
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
 * import { type DownloadToFileOptions, RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, rejects, strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.bin": new Uint8Array(100_000) } });
 * await using pool = new RepoFsPool(new RepoFs({ host: emu.host, pid: emu.pid }), { workers: 1 });
 * const dir = await Deno.makeTempDir();
 * let written = 0;
 * const options: DownloadToFileOptions = { onBytes: (n) => (written += n) };
 * await pool.downloadToFile("a.bin", `${dir}/a.bin`, options);
 * strictEqual(written, 100_000);
 * const stopped = { signal: AbortSignal.abort(new Error("not now")) };
 * await rejects(pool.downloadToFile("a.bin", `${dir}/b.bin`, stopped), /not now/);
 * deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.bin"]); // nothing left of b.bin
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export interface DownloadToFileOptions {
  /** Stops the download; the temporary file is removed. */
  signal?: AbortSignal;
  /** Called with each chunk's size as it is written. */
  onBytes?: (bytes: number) => void;
  /**
   * An empty temporary file to write to, made by the caller with
   * {@linkcode createTemporary}; default a new one made here. A caller that
   * may have to clean up after the download itself (a pool whose worker is
   * stuck or ended) makes it: once it has removed the file, a write that
   * was still on its way cannot make it again.
   */
  temporary?: string;
  /**
   * Keep what an interrupted download fetched and go on from it: the bytes
   * go to a partial file of a fixed name beside `target`, with a record of
   * the object (`ETag` or `Last-Modified`, listed size and checksum); a
   * failure or an abort keeps both, and the next download with `resume`
   * fetches only the rest, held to the recorded object, then checks the
   * whole file against the listing before renaming it. A changed object,
   * or kept bytes that do not verify, start over from byte 0. Default
   * false (`temporary` is then not used).
   */
  resume?: boolean;
  /**
   * Without `resume`: an abort keeps what was fetched, as `resume` keeps
   * it (partial file and record), for a later download with `resume` to
   * go on from; a failure still leaves nothing, and the download starts
   * from byte 0 whatever an earlier one kept. `get` without `--resume`
   * downloads so, since Ctrl-C is no failure. Default false.
   */
  keepIfAborted?: boolean;
}

/**
 * A temporary name beside `target`: hidden, marked `.repo-fs-partial-`,
 * with 16 random hex digits, and short enough for any file system.
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
 * The partial file of a resumable download to `target` (a fixed name,
 * hidden, marked as {@linkcode temporaryName} marks it) and its record.
 */
export function resumeName(target: string): [string, string] {
  const random = basename(temporaryName(target));
  const kept = random.slice(0, random.lastIndexOf(PARTIAL_MARK));
  const partial = join(dirname(target), `${kept}${PARTIAL_MARK}resume`);
  return [partial, `${partial}.json`];
}

/**
 * Streams `opened` to a temporary name beside `target`, checks it against
 * the listing entry `file`, and renames it into place (removing what an
 * interrupted resumable download to `target` kept). `target` must be a
 * path the caller has checked is safe to write.
 */
export async function downloadToFile(
  opened: RepoFile,
  file: FileInfo,
  target: string,
  options: DownloadToFileOptions = {},
): Promise<Downloaded> {
  const { signal, onBytes } = options;
  signal?.throwIfAborted();
  if (options.temporary === undefined) await prepareFolderOf(target);
  const temp = options.temporary ?? temporaryName(target);
  const handle = await open(
    temp,
    options.temporary === undefined ? "wx" : "r+",
  );
  const sink = {
    write: async (bytes: Uint8Array) =>
      (await handle.write(bytes)).bytesWritten,
  };
  let closed = false;
  try {
    const hash = checksumHash(file);
    let received = 0;
    for await (const chunk of opened.stream({ signal })) {
      hash?.update(chunk);
      await writeAll(sink, chunk);
      received += chunk.byteLength;
      onBytes?.(chunk.byteLength);
    }
    await handle.close();
    closed = true;
    const verified = verifyDownload(file, received, hash?.digest("hex"));
    await rename(temp, target);
    // What an interrupted resumable download of it kept is of no use now.
    await Promise.all(
      resumeName(target).map((path) => rm(path, { force: true })),
    ).catch(() => {});
    return { bytes: received, verified };
  } catch (error) {
    if (!closed) await handle.close().catch(() => {});
    throw await removedAfter(error, temp);
  }
}

/**
 * `error`, once the partial file at `path` is removed; when it cannot be,
 * an error that says so too, naming the file.
 */
export async function removedAfter(
  error: unknown,
  path: string,
): Promise<unknown> {
  try {
    await removeTemporary(path);
    return error;
  } catch (failed) {
    return new Error(
      `${
        errorMessage(error)
      }; and the partial file ${path} could not be removed: ${
        errorMessage((failed as Error).cause)
      }`,
      { cause: error },
    );
  }
}

/**
 * Makes an empty temporary file for a download to `target`, under a new
 * name from {@linkcode temporaryName}, and gives its path.
 */
export async function createTemporary(target: string): Promise<string> {
  await prepareFolderOf(target);
  const temporary = temporaryName(target);
  await (await open(temporary, "wx")).close();
  return temporary;
}

/**
 * Removes a temporary file of a download; one already gone is fine.
 *
 * @throws {Error} naming the file when it exists and cannot be removed
 */
export async function removeTemporary(path: string): Promise<void> {
  try {
    await rm(path, { force: true });
  } catch (error) {
    throw new Error(`could not remove the temporary file ${path}`, {
      cause: error,
    });
  }
}

/**
 * A hash of the algorithm of `file`'s listed checksum; `undefined` when none
 * is listed or repo-fs cannot compute its type.
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

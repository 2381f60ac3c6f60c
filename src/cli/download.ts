/**
 * The downloader behind `get`: a bounded number of files streamed at once
 * on the main thread, each to a temporary name beside its target, hashed
 * with MD5 while it streams, checked against the listing, and only then
 * renamed into place. A failure or an abort removes the temporary file, so
 * a file under its real name is always complete.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { basename, dirname, join } from "node:path";
import type { RepoFs } from "../repo_fs.ts";
import type { FileInfo } from "../types.ts";
import { writeAll } from "./io.ts";
import { type OutputRoot, UnsafePathError } from "./safe_path.ts";

/** Marks temporary files; no complete file carries it. */
const PARTIAL_MARK = ".repo-fs-partial-";
/** Longest part of the real name kept in a temporary name, in UTF-8 bytes. */
const TEMP_NAME_BYTES = 96;
const encoder = new TextEncoder();

/**
 * How a downloaded file was checked: its MD5, its size (no MD5 listed), or
 * not at all (neither listed, or more bytes served than listed, as for
 * ingested tabular files whose served form has a header line).
 *
 * @example
 * ```ts
 * import type { Verification } from "./download.ts";
 * const checked: Verification = "md5";
 * ```
 */
export type Verification = "md5" | "size" | "none";

/**
 * What happened to one file.
 *
 * @example
 * ```ts
 * import type { Outcome } from "./download.ts";
 * const done: Outcome = { path: "a.txt", status: "downloaded", bytes: 3, verified: "md5" };
 * const bad: Outcome = { path: "../x", status: "failed", error: "refused", refused: true };
 * ```
 */
export type Outcome =
  | {
    path: string;
    status: "downloaded";
    bytes: number;
    verified: Verification;
  }
  | { path: string; status: "skipped"; bytes: number }
  | { path: string; status: "failed"; error: string; refused: boolean };

/**
 * Options of a download run.
 *
 * @example
 * ```ts
 * import type { DownloadOptions } from "./download.ts";
 * const options: DownloadOptions = {
 *   parallel: 8,
 *   resume: false,
 *   signal: new AbortController().signal,
 *   onBytes: () => {},
 *   onOutcome: (outcome) => console.log(outcome.status, outcome.path),
 * };
 * ```
 */
export interface DownloadOptions {
  /** Files streamed at once (>= 1). */
  parallel: number;
  /** Skip files already complete on disk. */
  resume: boolean;
  /** Stops the run: files in flight are abandoned and their temporary files removed. */
  signal: AbortSignal;
  /** Called with each chunk's size as it is written. */
  onBytes(bytes: number): void;
  /** Called when a file is finished, whatever the outcome. */
  onOutcome(outcome: Outcome): void;
}

/**
 * Downloads `files` below `root`, `parallel` at a time. Resolves to the
 * outcomes of the files that were finished, in `files` order; when the
 * signal aborts, the files in flight and those not started have none.
 *
 * @example
 * ```ts ignore
 * const root = await OutputRoot.open("out");
 * const outcomes = await downloadAll(fs, root, await fs.find("").then(...), options);
 * ```
 */
export async function downloadAll(
  fs: RepoFs,
  root: OutputRoot,
  files: readonly FileInfo[],
  options: DownloadOptions,
): Promise<Outcome[]> {
  const outcomes: (Outcome | undefined)[] = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < files.length && !options.signal.aborted) {
      const index = next++;
      const outcome = await downloadFile(fs, root, files[index], options);
      if (outcome === undefined) return;
      outcomes[index] = outcome;
      options.onOutcome(outcome);
    }
  };
  const workers = Math.min(options.parallel, files.length);
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes.filter((outcome) => outcome !== undefined);
}

/**
 * Downloads one file below `root`; `undefined` when the signal aborted it.
 *
 * @example
 * ```ts ignore
 * const outcome = await downloadFile(fs, root, await fs.info("a.txt"), options);
 * ```
 */
export async function downloadFile(
  fs: RepoFs,
  root: OutputRoot,
  file: FileInfo,
  options: DownloadOptions,
): Promise<Outcome | undefined> {
  const path = file.name;
  try {
    const target = await root.prepare(path);
    if (options.resume && await isComplete(target, file, options.signal)) {
      return { path, status: "skipped", bytes: file.size ?? 0 };
    }
    const { bytes, verified } = await fetchInto(fs, file, target, options);
    return { path, status: "downloaded", bytes, verified };
  } catch (error) {
    if (options.signal.aborted) return undefined;
    const refused = error instanceof UnsafePathError;
    const message = refused
      ? error.reason
      : error instanceof Error
      ? error.message
      : String(error);
    return { path, status: "failed", error: message, refused };
  }
}

/**
 * Whether the file at `target` is the listed file: same size and same MD5
 * when the listing has them (the size alone when no MD5 is listed). A file
 * with neither listed is never taken as complete; nor is a symlink.
 *
 * @example
 * ```ts ignore
 * if (await isComplete("out/a.txt", await fs.info("a.txt"), signal)) console.log("skip");
 * ```
 */
export async function isComplete(
  target: string,
  file: FileInfo,
  signal: AbortSignal,
): Promise<boolean> {
  let stat: Deno.FileInfo;
  try {
    stat = await Deno.lstat(target);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  if (!stat.isFile) return false;
  if (file.size !== null && stat.size !== file.size) return false;
  if (file.md5 !== undefined) {
    return (await md5OfFile(target, signal)) === file.md5.toLowerCase();
  }
  return file.size !== null;
}

/**
 * A temporary name beside `target`: hidden, marked `.repo-fs-partial-`,
 * with 16 random hex digits, and short enough for any file system.
 *
 * @example
 * ```ts
 * import { temporaryName } from "./download.ts";
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

/** Streams the file to a temporary name, checks it, renames it into place. */
async function fetchInto(
  fs: RepoFs,
  file: FileInfo,
  target: string,
  options: DownloadOptions,
): Promise<{ bytes: number; verified: Verification }> {
  const { signal } = options;
  signal.throwIfAborted();
  const temp = temporaryName(target);
  const handle = await Deno.open(temp, { write: true, createNew: true });
  let open = true;
  let renamed = false;
  try {
    const hash = createHash("md5");
    let received = 0;
    const stream = (await fs.open(file.name)).stream({ signal });
    for await (const chunk of stream) {
      hash.update(chunk);
      await writeAll(handle, chunk);
      received += chunk.byteLength;
      options.onBytes(chunk.byteLength);
    }
    handle.close();
    open = false;
    const verified = verify(file, received, hash.digest("hex"));
    await Deno.rename(temp, target);
    renamed = true;
    return { bytes: received, verified };
  } finally {
    if (open) handle.close();
    if (!renamed) await Deno.remove(temp).catch(() => {});
  }
}

/**
 * Checks the bytes received against the listing; throws on a mismatch. More
 * bytes than listed is how ingested tabular files are served (a header line
 * the listing does not count): their listed MD5 cannot describe the bytes.
 */
function verify(file: FileInfo, received: number, md5: string): Verification {
  const listed = file.size;
  if (listed !== null && received < listed) {
    throw new Error(`short download: ${received} of ${listed} listed bytes`);
  }
  const servedMore = listed !== null && received > listed;
  if (file.md5 !== undefined) {
    if (md5 === file.md5.toLowerCase()) return "md5";
    if (servedMore) return "none";
    throw new Error(
      `MD5 mismatch: the listing says ${file.md5}, the bytes received have ${md5}; not kept`,
    );
  }
  return listed === null || servedMore ? "none" : "size";
}

async function md5OfFile(path: string, signal: AbortSignal): Promise<string> {
  const hash = createHash("md5");
  using file = await Deno.open(path);
  const buffer = new Uint8Array(1 << 20);
  for (;;) {
    signal.throwIfAborted();
    const n = await file.read(buffer);
    if (n === null) break;
    hash.update(buffer.subarray(0, n));
  }
  return hash.digest("hex");
}

/**
 * The downloader behind `get`: a bounded number of files at once, each
 * checked for a safe target on this thread and then downloaded by a worker
 * of a `RepoFsPool` (streamed to a temporary name, hashed with the listed
 * checksum's algorithm, checked against the listing, renamed into place;
 * see `src/download/file_download.ts`). A
 * failure removes the temporary file, so a file under its real name is
 * always complete; a stop (the signal) keeps the bytes of the files in
 * flight, hidden, for the next `--resume` to go on from (see
 * `src/download/resume_download.ts`), and with `--resume` a failure keeps
 * them too.
 *
 * @module
 */

import {
  checksumHash,
  type Downloaded,
  type Verification,
  verifyDownload,
} from "../download/file_download.ts";
import type { RepoFsPool } from "../pool/pool.ts";
import { Semaphore } from "../base/semaphore.ts";
import { errorMessage, RepoChangedError } from "../base/errors.ts";
import { hasListedShape, replaceIfVerified } from "./keep_existing.ts";
import type { FileInfo } from "../base/types.ts";
import { lstatOrNull, type OutputRoot, UnsafePathError } from "./safe_path.ts";

/**
 * What downloads a file by its (placed) name to a target, and may say
 * itself whether a file already there is complete (`--resume`).
 */
export type Downloader = Pick<RepoFsPool, "downloadToFile"> & {
  isComplete?: typeof isComplete;
};

/** What happened to one file. */
export type Outcome =
  | {
    path: string;
    status: "downloaded";
    bytes: number;
    verified: Verification;
  }
  | { path: string; status: "skipped"; bytes: number }
  | { path: string; status: "failed"; error: string; refused: boolean };

/** Options of a download run. */
export interface DownloadOptions {
  /** Files streamed at once (>= 1). */
  parallel: number;
  /**
   * Skip files already complete on disk; keep the bytes of those
   * interrupted, and go on from those kept.
   */
  resume: boolean;
  /** Stops the run: files in flight are abandoned, their bytes kept (see the module). */
  signal: AbortSignal;
  /** Called with each chunk's size as it is written. */
  onBytes(bytes: number): void;
  /** Called when a file is finished, whatever the outcome. */
  onOutcome(outcome: Outcome): void;
  /** What a failed file's line says of its error; default its message. */
  describe?(error: unknown): Promise<string>;
}

/**
 * Downloads `files` below `root`, `parallel` at a time. Resolves to the
 * outcomes of the files that were finished, in `files` order; when the
 * signal aborts, the files in flight and those not started have none.
 */
export async function downloadAll(
  pool: Downloader,
  root: OutputRoot,
  files: readonly FileInfo[],
  options: DownloadOptions,
): Promise<Outcome[]> {
  const outcomes: (Outcome | undefined)[] = new Array(files.length);
  const downloading = new Semaphore(options.parallel);
  const settled = await Promise.allSettled(
    files.map((file, index) =>
      downloading.run(async () => {
        const outcome = await downloadFile(pool, root, file, options);
        if (outcome === undefined) return;
        outcomes[index] = outcome;
        options.onOutcome(outcome);
      }, options.signal)
    ),
  );
  for (const result of settled) {
    if (result.status === "rejected" && !options.signal.aborted) {
      throw result.reason;
    }
  }
  return outcomes.filter((outcome) => outcome !== undefined);
}

/** Downloads one file below `root`; `undefined` when the signal aborted it. */
export async function downloadFile(
  pool: Downloader,
  root: OutputRoot,
  file: FileInfo,
  options: DownloadOptions,
): Promise<Outcome | undefined> {
  const path = file.name;
  const skipped: Outcome = { path, status: "skipped", bytes: file.size ?? 0 };
  const fetch = (to: string, resume = false, keepIfAborted = false) =>
    startingOver(pool, path, to, { ...options, resume, keepIfAborted });
  try {
    const target = await root.prepare(path);
    let done: Downloaded | "same";
    // A stop is no failure: what was fetched stays for a later --resume.
    if (!options.resume) done = await fetch(target, false, true);
    else if (
      await (pool.isComplete ?? isComplete)(target, file, options.signal)
    ) {
      return skipped;
    } else if (await hasListedShape(target, file)) {
      done = await replaceIfVerified(target, fetch);
    } else done = await fetch(target, true);
    if (done === "same") return skipped;
    return {
      path,
      status: "downloaded",
      bytes: done.bytes,
      verified: done.verified,
    };
  } catch (error) {
    if (options.signal.aborted) return undefined;
    const refused = error instanceof UnsafePathError;
    const message = refused
      ? error.reason
      : await (options.describe?.(error) ?? errorMessage(error));
    return { path, status: "failed", error: message, refused };
  }
}

/**
 * Downloads `path` to `target`, starting over once when the file changed
 * while it was read (a `RepoChangedError`): the second read is of the new
 * object from its first byte.
 */
async function startingOver(
  pool: Downloader,
  path: string,
  target: string,
  options: DownloadOptions & { keepIfAborted: boolean },
): Promise<Downloaded> {
  const { signal, onBytes, resume, keepIfAborted } = options;
  const download = () =>
    pool.downloadToFile(path, target, {
      signal,
      onBytes,
      resume,
      keepIfAborted,
    });
  try {
    return await download();
  } catch (error) {
    if (!(error instanceof RepoChangedError) || signal.aborted) throw error;
    return await download();
  }
}

/**
 * Whether the file at `target` is the listed file, checked as a download
 * of it would be (see `verifyDownload`): same size and same checksum when
 * the listing has them, the size alone when no checksum is listed. A file
 * that could not be verified (neither listed, a checksum of a type that
 * cannot be computed) is never taken as complete; nor is a symlink.
 */
export async function isComplete(
  target: string,
  file: FileInfo,
  signal: AbortSignal,
): Promise<boolean> {
  const stat = await lstatOrNull(target);
  if (!stat?.isFile) return false;
  if (file.size !== null && stat.size !== file.size) return false;
  const hash = checksumHash(file);
  if (hash !== undefined) {
    using opened = await Deno.open(target);
    const buffer = new Uint8Array(1 << 20);
    for (let n; (n = await opened.read(buffer)) !== null;) {
      signal.throwIfAborted();
      hash.update(buffer.subarray(0, n));
    }
  }
  try {
    return verifyDownload(file, stat.size, hash?.digest("hex")) !== "none";
  } catch {
    return false;
  }
}

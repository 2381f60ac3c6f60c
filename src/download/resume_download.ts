/**
 * A download that an interruption does not undo (`downloadToFile(path,
 * target, { resume: true })`, `get --resume`): its bytes go to a partial
 * file of a fixed name beside the target, with a record of what identifies
 * the object (its `ETag` or `Last-Modified`, the listed size and checksum).
 * A failed or aborted download keeps both; the next one hashes the kept
 * bytes, asks for the rest with `Range` and `If-Range` naming the recorded
 * validator (a changed object comes whole, 200, and an answer with another
 * validator is refused here), and renames the file only once the kept and
 * the new bytes verify together. A changed object, kept bytes that do not
 * verify, or a partial file without its record start over from byte 0.
 * One download at a time writes the kept bytes of a file (a lock file
 * beside them, see `src/base/file_lock.ts`); another at the same time
 * downloads on its own to a temporary name, as a download without
 * `resume` does. With `keepIfAborted` instead of `resume`, the download
 * starts from byte 0 (what was kept is removed), and only an abort keeps
 * its bytes: a failure leaves nothing.
 *
 * @module
 */

import * as fs from "node:fs";
import * as os from "node:os";
import { lstat, open, readFile, rename, rm, writeFile } from "node:fs/promises";
import type { Hash } from "node:crypto";
import { RepoChangedError } from "../base/errors.ts";
import { tryFileLock } from "../base/file_lock.ts";
import { listedChecksum } from "../base/checksum.ts";
import type { FileInfo } from "../base/types.ts";
import { writeAll } from "../base/write_all.ts";
import {
  checksumHash,
  type Downloaded,
  type DownloadToFileOptions,
  removedAfter,
  resumeName,
  temporaryName,
  verifyDownload,
} from "./file_download.ts";
import { prepareFolderOf } from "./folder_access.ts";

/** An answer's validators; `null` where it had none. */
export interface ObjectValidators {
  etag: string | null;
  lastModified: string | null;
}

/**
 * The bytes of one file from `start` on, every answer held to `validators`
 * when given (another object fails with a `RepoChangedError`), and the
 * validators of the answer once it came.
 */
export type ResumableSource = (
  start: number,
  validators: ObjectValidators | undefined,
  signal: AbortSignal | undefined,
) => {
  stream: ReadableStream<Uint8Array>;
  validators(): ObjectValidators | undefined;
};

const FORMAT = "repo-fs-resume/1";
/** A download touches its lock this often... */
const LOCK_TOUCH_MS = 10_000;
/** ...so that one this old was left by a process that died holding it. */
const LOCK_STALE_MS = 60_000;

/** What the record beside a partial file holds. */
interface ResumeRecord {
  format: typeof FORMAT;
  validators: ObjectValidators;
  size: number | null;
  checksum: { type: string; value: string } | null;
}

/** Kept bytes a download goes on from. */
interface Kept {
  bytes: number;
  validators?: ObjectValidators;
}

/** Verification failed: the partial file and its record are gone. */
class NotVerified extends Error {}

/**
 * Downloads the listed `file` from `source` to `target`, going on from
 * the bytes an earlier interrupted download of it kept (see the module).
 * `target` must be a path the caller has checked is safe to write.
 */
export async function resumeToFile(
  source: ResumableSource,
  file: FileInfo,
  target: string,
  options: DownloadToFileOptions = {},
): Promise<Downloaded> {
  options.signal?.throwIfAborted();
  await prepareFolderOf(target);
  const [partial, record] = resumeName(target);
  const job = { source, file, target, partial, record, options };
  const lock = tryFileLock({ fs, os }, `${partial}.lock`, LOCK_STALE_MS);
  if (lock === undefined) {
    // Another download is writing the kept bytes: this one keeps nothing.
    const alone = { ...job, partial: temporaryName(target), record: undefined };
    return await download(alone, { bytes: 0 });
  }
  const heartbeat = setInterval(() => lock.touch(), LOCK_TOUCH_MS);
  try {
    const kept = options.resume === true
      ? await keptBytes(partial, record, file)
      : await nothingKept(partial, record);
    try {
      return await download(job, kept);
    } catch (error) {
      const restart = kept.bytes > 0 && !options.signal?.aborted &&
        (error instanceof RepoChangedError || error instanceof NotVerified);
      if (!restart) throw error;
      await removeBoth(partial, record);
      return await download(job, { bytes: 0 });
    }
  } finally {
    clearInterval(heartbeat);
    lock.release();
  }
}

/**
 * The bytes kept at `partial` that a download may go on from: none (and
 * both files removed) without a record, with one of another listed file
 * or no validator, with more bytes than listed, or for a file whose full
 * size the listing does not give (none, or an ingested tabular file).
 */
async function keptBytes(
  partial: string,
  record: string,
  file: FileInfo,
): Promise<Kept> {
  const [stat, text] = await Promise.all([
    lstat(partial).catch(() => null),
    readFile(record, "utf8").catch(() => null),
  ]);
  const found = text === null ? undefined : parseRecord(text);
  if (
    stat?.isFile() && found !== undefined &&
    JSON.stringify(found) ===
      JSON.stringify(recordOf(file, found.validators)) &&
    // How long an ingested tabular file is served, the listing does not say.
    file.size !== null && !file.tabular && stat.size <= file.size
  ) {
    return { bytes: stat.size, validators: found.validators };
  }
  await removeBoth(partial, record);
  return { bytes: 0 };
}

/** Removes what an earlier download kept: this one starts from byte 0. */
async function nothingKept(partial: string, record: string): Promise<Kept> {
  await removeBoth(partial, record);
  return { bytes: 0 };
}

/** One attempt: from `kept` on, to a verified file renamed into place. */
async function download(
  job: {
    source: ResumableSource;
    file: FileInfo;
    target: string;
    partial: string;
    /** Where the object's record goes; none when the bytes are not kept. */
    record: string | undefined;
    options: DownloadToFileOptions;
  },
  kept: Kept,
): Promise<Downloaded> {
  const { source, file, partial, record, options } = job;
  const { signal, onBytes } = options;
  const hash = checksumHash(file);
  if (hash !== undefined && kept.bytes > 0) {
    await hashFile(partial, hash, signal);
  }
  const handle = await open(partial, kept.bytes > 0 ? "a" : "wx");
  const sink = {
    write: async (bytes: Uint8Array) =>
      (await handle.write(bytes)).bytesWritten,
  };
  let recorded = kept.bytes > 0;
  let received = kept.bytes;
  try {
    if (kept.bytes === 0 || kept.bytes < file.size!) {
      const answer = source(kept.bytes, kept.validators, signal);
      for await (const chunk of answer.stream) {
        if (!recorded && record !== undefined) {
          recorded = await writeRecord(record, file, answer);
        }
        hash?.update(chunk);
        await writeAll(sink, chunk);
        received += chunk.byteLength;
        onBytes?.(chunk.byteLength);
      }
    }
  } catch (error) {
    await handle.close().catch(() => {});
    // Kept for the next download only when its record says what they are of.
    const keep = options.resume === true || options.signal?.aborted === true;
    if (recorded && keep) throw error;
    if (record !== undefined) await rm(record, { force: true }).catch(() => {});
    throw await removedAfter(error, partial);
  }
  await handle.close();
  let verified;
  try {
    verified = verifyDownload(file, received, hash?.digest("hex"));
  } catch (error) {
    await removeBoth(partial, record);
    throw new NotVerified((error as Error).message, { cause: error });
  }
  await rename(partial, job.target);
  if (record !== undefined) await rm(record, { force: true });
  return { bytes: received, verified };
}

/**
 * Writes the record of the object `answer` is of, before its first byte is
 * kept; `false` when the answer has no validator, so that nothing could
 * tell a later answer of another object from it.
 */
async function writeRecord(
  path: string,
  file: FileInfo,
  answer: { validators(): ObjectValidators | undefined },
): Promise<boolean> {
  const validators = answer.validators();
  if (validators === undefined) return false;
  if (validators.etag === null && validators.lastModified === null) {
    return false;
  }
  await writeFile(path, JSON.stringify(recordOf(file, validators)), {
    flag: "wx",
  });
  return true;
}

function recordOf(file: FileInfo, validators: ObjectValidators): ResumeRecord {
  const checksum = listedChecksum(file);
  return {
    format: FORMAT,
    validators: {
      etag: validators.etag,
      lastModified: validators.lastModified,
    },
    size: file.size,
    checksum: checksum === undefined
      ? null
      : { type: checksum.type, value: checksum.value },
  };
}

/** The record in `text`; `undefined` when it is not one. */
function parseRecord(text: string): ResumeRecord | undefined {
  try {
    const record = JSON.parse(text) as Partial<ResumeRecord>;
    const { etag, lastModified } = record.validators ?? {};
    const named = (value: unknown) =>
      value === null || typeof value === "string";
    if (record.format !== FORMAT || !named(etag) || !named(lastModified)) {
      return undefined;
    }
    if (etag === null && lastModified === null) return undefined;
    return record as ResumeRecord;
  } catch {
    return undefined;
  }
}

/** Feeds the file at `path` to `hash`. */
async function hashFile(
  path: string,
  hash: Hash,
  signal: AbortSignal | undefined,
): Promise<void> {
  const handle = await open(path, "r");
  try {
    const buffer = new Uint8Array(1 << 20);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length);
      if (bytesRead === 0) return;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
}

async function removeBoth(
  partial: string,
  record: string | undefined,
): Promise<void> {
  await rm(partial, { force: true });
  if (record !== undefined) await rm(record, { force: true });
}

/**
 * `get --resume` over a local file that has the listed shape but could not
 * be verified (an ingested tabular file, whose listed checksum is of the
 * original upload, or a checksum of a type repo-fs cannot compute): the new
 * answer replaces it only when it verifies, so that a download never
 * replaces a file with one it has less reason to trust.
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { rename } from "node:fs/promises";
import type { FileInfo } from "../base/types.ts";
import { lstatOrNull } from "./safe_path.ts";
import {
  type Downloaded,
  removeTemporary,
  temporaryName,
} from "../download/file_download.ts";

/**
 * Whether the file at `target` is a regular file of the listed size (at
 * least it for an ingested tabular file, served longer than listed).
 */
export async function hasListedShape(
  target: string,
  file: FileInfo,
): Promise<boolean> {
  if (file.size === null) return false;
  const stat = await lstatOrNull(target);
  if (!stat?.isFile) return false;
  return file.tabular ? stat.size >= file.size : stat.size === file.size;
}

/**
 * Downloads (with `download`, to the path it is given) beside the file at
 * `target` and moves the new file into place when it verifies. Otherwise
 * the existing one stays: `"same"` when the new bytes are the same, an
 * error saying so when they differ.
 */
export async function replaceIfVerified(
  target: string,
  download: (to: string) => Promise<Downloaded>,
): Promise<Downloaded | "same"> {
  const staged = temporaryName(target);
  try {
    const done = await download(staged);
    if (done.verified !== "none") {
      await rename(staged, target);
      return done;
    }
    if (await sameBytes(staged, target)) return "same";
    throw new Error(
      `the answer (${done.bytes} bytes) cannot be verified and differs from the file already there, which has the listed size: the existing file was kept`,
    );
  } finally {
    await removeTemporary(staged);
  }
}

/** Whether two files hold the same bytes. */
async function sameBytes(a: string, b: string): Promise<boolean> {
  using one = await Deno.open(a);
  using two = await Deno.open(b);
  if ((await one.stat()).size !== (await two.stat()).size) return false;
  const [x, y] = [Buffer.alloc(1 << 20), Buffer.alloc(1 << 20)];
  for (;;) {
    const n = await fill(one, x);
    if (n !== await fill(two, y)) return false;
    if (n === 0) return true;
    if (!x.subarray(0, n).equals(y.subarray(0, n))) return false;
  }
}

/** Reads into `buffer` until it is full or the file ends; the bytes read. */
async function fill(file: Deno.FsFile, buffer: Uint8Array): Promise<number> {
  let got = 0;
  while (got < buffer.length) {
    const n = await file.read(buffer.subarray(got));
    if (n === null) break;
    got += n;
  }
  return got;
}

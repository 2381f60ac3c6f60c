/**
 * The whole lines of a byte window of a text file.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { chunks } from "./chunks.ts";
import { lineText, nextNewline } from "./line_bytes.ts";
import { lineTooLong, maxLineBytes } from "./line_limit.ts";

/**
 * Which bytes {@linkcode lines} reads the lines of.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { lines, type LinesOptions } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "obs.csv": "station,t\nA,1.5\nB,2.25\nC,-3\n" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * // From byte 12, inside "A,1.5": the lines that start after it.
 * const fromByte12: LinesOptions = { start: 12 };
 * deepStrictEqual(await Array.fromAsync(lines(fs, "obs.csv", fromByte12)), ["B,2.25", "C,-3"]);
 * ```
 */
export interface LinesOptions {
  /** First byte of the window. Default 0. */
  start?: number;
  /** Byte after the window (exclusive). Default: the end of the file. */
  end?: number;
  /** Aborts the reads. */
  signal?: AbortSignal;
  /**
   * The longest line held, in bytes: a longer one is a `FormatError` naming
   * the limit. Default 64 MiB.
   */
  maxLineBytes?: number;
}

/**
 * The lines of file `path` that start in bytes `start`..`end`, whole: a
 * window that starts inside a line begins at the next one, and a line
 * that starts in the window but ends after it is read to its end. So
 * consecutive windows give every line of the file exactly once, as
 * Hadoop's and Spark's input splits do. Lines end at `\n` (a `\r` before
 * it is dropped; a last line needs none) and are decoded as UTF-8. Ranges
 * are read as the lines are taken, growing from 16 KiB, never past the end
 * of the file, which is found by reading, not from the listing (an
 * ingested `.tab` file is served longer than listed). A line longer than
 * `maxLineBytes` (default 64 MiB) is a `FormatError` naming the limit.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { lines } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "obs.csv": "station,t\nA,1.5\nB,2.25\nC,-3\n" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * // Bytes 12..20 cut "A,1.5" and "B,2.25": the window owns the line starting in it.
 * deepStrictEqual(await Array.fromAsync(lines(fs, "obs.csv", { start: 12, end: 20 })), ["B,2.25"]);
 * deepStrictEqual(await Array.fromAsync(lines(fs, "obs.csv", { start: 0, end: 12 })), ["station,t", "A,1.5"]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param options the window, and a signal
 */
export async function* lines(
  source: ByteSource,
  path: string,
  options: LinesOptions = {},
): AsyncGenerator<string, void, undefined> {
  const { start = 0, end = Infinity, signal } = options;
  if (!isOffset(start) || !(isOffset(end) || end === Infinity)) {
    throw new TypeError(
      `start and end must be integers >= 0, got ${start} and ${end}`,
    );
  }
  const limit = maxLineBytes(options.maxLineBytes);
  if (start >= end) return;
  // From the byte before the window: a line starts at `start` when it is `\n`.
  let at = start > 0 ? start - 1 : 0;
  let skipping = start > 0;
  let pieces: Uint8Array[] = [];
  let held = 0;
  const hold = (piece: Uint8Array) => {
    held += piece.byteLength;
    if (held > limit) throw lineTooLong(path, limit);
    pieces.push(piece);
  };
  for await (const chunk of chunks(source, path, at, end, signal)) {
    let from = 0;
    if (skipping) {
      const newline = nextNewline(chunk);
      if (newline < 0) {
        at += chunk.byteLength;
        // No line starts in the window.
        if (at >= end) return;
        continue;
      }
      skipping = false;
      from = newline + 1;
      if (at + from >= end) return;
    }
    for (let newline; (newline = nextNewline(chunk, from)) >= 0;) {
      hold(chunk.subarray(from, newline));
      yield lineText(pieces);
      pieces = [];
      held = 0;
      from = newline + 1;
      if (at + from >= end) return;
    }
    if (from < chunk.byteLength) hold(chunk.subarray(from));
    at += chunk.byteLength;
  }
  if (pieces.length > 0) yield lineText(pieces);
}

function isOffset(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

/**
 * The first or last lines of a text file, reading only what they need.
 *
 * @module
 */

import { concat } from "../../content/content.ts";
import type { ByteSource } from "../source.ts";
import { FIRST_CHUNK, LAST_CHUNK } from "./chunks.ts";
import {
  endsWithNewline,
  lineText,
  NEWLINE,
  nextNewline,
} from "./line_bytes.ts";
import { lineTooLong, maxLineBytes } from "./line_limit.ts";
import { lines } from "./lines.ts";

/**
 * Options of {@linkcode head} and {@linkcode tail}.
 *
 * @example
 * ```ts
 * import { FormatError, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { tail, type TextOptions } from "@x/repo-fs/text";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "log.txt": "a very long line\nok\n" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const short: TextOptions = { maxLineBytes: 8 };
 * deepStrictEqual(await tail(fs, "log.txt", 1, short), ["ok"]);
 * await rejects(tail(fs, "log.txt", 2, short), FormatError); // the long line is needed
 * ```
 */
export interface TextOptions {
  /** Aborts the reads. */
  signal?: AbortSignal;
  /**
   * The longest line held, in bytes: a longer one that is needed is a
   * `FormatError` naming the limit. Default 64 MiB.
   */
  maxLineBytes?: number;
}

/**
 * The first `n` lines of file `path` (fewer when it has fewer), as
 * {@linkcode lines} gives them; it reads ranges growing from 16 KiB until
 * it has them.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { head } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "obs.tsv": "station\tt\r\nA\t1.5\r\nB\t2.25\r\n" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await head(fs, "obs.tsv", 2), ["station\tt", "A\t1.5"]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param n how many lines
 * @param options `signal` aborts the reads; `maxLineBytes` bounds a line
 */
export async function head(
  source: ByteSource,
  path: string,
  n: number,
  options: TextOptions = {},
): Promise<string[]> {
  checkCount(n);
  const first: string[] = [];
  if (n === 0) return first;
  for await (const line of lines(source, path, options)) {
    if (first.push(line) === n) break;
  }
  return first;
}

/**
 * The last `n` lines of file `path` (fewer when it has fewer), as
 * {@linkcode lines} gives them. It reads backwards by ranges from the end
 * of the file (suffix ranges, so an ingested `.tab` file, served longer
 * than listed, is read from its true end), each twice the last, from
 * 16 KiB, until they hold `n` whole lines or reach the file's start,
 * looking at each byte once to count them. A line it needs that is longer
 * than `maxLineBytes` (default 64 MiB) is a `FormatError` naming the limit.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { tail } from "@x/repo-fs/text";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "log.txt": "one\ntwo\nthree" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await tail(fs, "log.txt", 2), ["two", "three"]);
 * deepStrictEqual(await tail(fs, "log.txt", 10), ["one", "two", "three"]);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool` or a `zipTree`
 * @param path the file's path in `source`
 * @param n how many lines
 * @param options `signal` aborts the reads; `maxLineBytes` bounds a line
 */
export async function tail(
  source: ByteSource,
  path: string,
  n: number,
  options: TextOptions = {},
): Promise<string[]> {
  checkCount(n);
  const limit = maxLineBytes(options.maxLineBytes);
  if (n === 0) return [];
  const { signal } = options;
  const blocks: Uint8Array[] = [];
  let have = 0;
  let size = FIRST_CHUNK;
  let atStart = false;
  let trailing = false;
  const back = new BackwardLines(n, limit, path);
  while (!atStart && !back.done) {
    const range = have === 0
      ? { start: -size }
      : { start: -(have + size), end: -have };
    const bytes = await source.catFile(path, { ...range, signal });
    const last = have === 0;
    if (last) trailing = endsWithNewline(bytes);
    have += bytes.byteLength;
    atStart = bytes.byteLength < size;
    blocks.unshift(bytes);
    back.scan(bytes, last && trailing, atStart);
    size = Math.min(size * 2, LAST_CHUNK);
  }
  if (have === 0) return [];
  blocks[0] = blocks[0].subarray(back.from);
  const body = concat(blocks);
  return splitLines(trailing ? body.subarray(0, -1) : body);
}

/**
 * Counts lines backward from the end of a file, block by block, each byte
 * looked at once: it is `done` when the blocks seen hold `n` whole lines,
 * which start at `from` in the earliest block. A line it needs that grows
 * past `limit` bytes is refused.
 */
class BackwardLines {
  done = false;
  /** Where the lines wanted start in the earliest block. */
  from = 0;
  #found = 0;
  /** Bytes of the line being measured, from its end back to the blocks seen. */
  #run = 0;

  constructor(
    readonly n: number,
    readonly limit: number,
    readonly path: string,
  ) {}

  /**
   * Takes the block before those seen: with `dropLast` its last byte (the
   * file's closing `\n`) ends no line, and `first` says it starts the file.
   */
  scan(block: Uint8Array, dropLast: boolean, first: boolean): void {
    let end = dropLast ? block.byteLength - 1 : block.byteLength;
    for (let nl; end > 0 && (nl = block.lastIndexOf(NEWLINE, end - 1)) >= 0;) {
      this.#measure(this.#run + end - nl - 1);
      this.#run = 0;
      end = nl;
      if (++this.#found === this.n) {
        this.done = true;
        this.from = nl + 1;
        return;
      }
    }
    this.#run += end;
    if (this.#run > this.limit || first) this.#measure(this.#run);
  }

  #measure(length: number): void {
    if (length > this.limit) throw lineTooLong(this.path, this.limit);
  }
}

/** The lines of `bytes`, which do not end with a line's `\n`. */
function splitLines(bytes: Uint8Array): string[] {
  const found: string[] = [];
  let from = 0;
  for (let newline; (newline = nextNewline(bytes, from)) >= 0;) {
    found.push(lineText([bytes.subarray(from, newline)]));
    from = newline + 1;
  }
  found.push(lineText([bytes.subarray(from)]));
  return found;
}

function checkCount(n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new TypeError(`n must be an integer >= 0, got ${n}`);
  }
}

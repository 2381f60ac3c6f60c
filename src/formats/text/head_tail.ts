/**
 * The first or last lines of a text file, reading only what they need.
 *
 * @module
 */

import { concat } from "../../content/content.ts";
import type { ByteSource } from "../source.ts";
import { FIRST_CHUNK, LAST_CHUNK } from "./chunks.ts";
import { endsWithNewline, lineText, nextNewline } from "./line_bytes.ts";
import { lines } from "./lines.ts";

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
 * @param options `signal` aborts the reads
 */
export async function head(
  source: ByteSource,
  path: string,
  n: number,
  options: { signal?: AbortSignal } = {},
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
 * 16 KiB, until they hold `n` whole lines or reach the file's start.
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
 * @param options `signal` aborts the reads
 */
export async function tail(
  source: ByteSource,
  path: string,
  n: number,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  checkCount(n);
  if (n === 0) return [];
  const { signal } = options;
  const pieces: Uint8Array[] = [];
  let have = 0;
  let size = FIRST_CHUNK;
  let atStart = false;
  let body: Uint8Array = new Uint8Array(0);
  while (!atStart) {
    const range = have === 0
      ? { start: -size }
      : { start: -(have + size), end: -have };
    const bytes = await source.catFile(path, { ...range, signal });
    pieces.unshift(bytes);
    have += bytes.byteLength;
    atStart = bytes.byteLength < size;
    body = concat(pieces);
    if (endsWithNewline(body)) body = body.subarray(0, -1);
    if (newlines(body, n) >= n) break;
    size = Math.min(size * 2, LAST_CHUNK);
  }
  if (have === 0) return [];
  const found = splitLines(body);
  // Before the first newline read, a line may start earlier in the file.
  return (atStart ? found : found.slice(1)).slice(-n);
}

/** How many `\n` `bytes` hold, counting no further than `most`. */
function newlines(bytes: Uint8Array, most: number): number {
  let count = 0;
  for (let at = 0; count < most && (at = nextNewline(bytes, at)) >= 0; at++) {
    count++;
  }
  return count;
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

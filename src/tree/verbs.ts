/**
 * The verbs `RepoFs` and `RepoFsPool` share beyond the table lookups and
 * reads each does its own way (fsspec's `isdir`, `isfile`, `du`, `walk`,
 * `cat`, and `catRanges`): written once here over what both classes have.
 *
 * @module
 */

import { NotFoundError } from "../base/errors.ts";
import type { FileInfo } from "../base/types.ts";
import { compileGlob } from "./glob.ts";
import { normalizePath } from "./paths.ts";

/**
 * One request of `catRanges`.
 *
 * @example
 * ```ts
 * import { type RangeRequest, RepoFsPool } from "@x/repo-fs";
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * await using pool = new RepoFsPool(new RepoFs({ host: emu.host, pid: emu.pid }), { workers: 1 });
 * const requests: RangeRequest[] = [
 *   { path: "a.txt", start: 0, end: 2 },
 *   { path: "a.txt", start: -3 },
 * ];
 * const parts = await pool.catRanges(requests);
 * deepStrictEqual(parts.map((p) => new TextDecoder().decode(p)), ["he", "llo"]);
 * ```
 */
export interface RangeRequest {
  /** Dataset path of a file. */
  path: string;
  /** First byte (negative: from the end). */
  start?: number;
  /** Byte after the last (exclusive; negatives from the end). */
  end?: number;
}

/** What the shared verbs need of a `RepoFs` or a `RepoFsPool`. */
export interface VerbSource {
  /** The entry of a path. */
  info(path: string): Promise<FileInfo>;
  /** Direct children of a directory; `[info]` for a file. */
  ls(path: string): Promise<FileInfo[]>;
  /** Paths below `path`, sorted. */
  find(path: string): Promise<string[]>;
  /** Paths matching a glob pattern, sorted. */
  glob(pattern: string): Promise<string[]>;
  /** The bytes of a file, or of a range of it. */
  catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;
}

/**
 * One step of `walk`: a directory, its subdirectories' names and its
 * files' names.
 *
 * @example
 * ```ts
 * import { RepoFs, type WalkEntry } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "data/a.csv": "1", "data/raw/b.bin": "2" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const steps: WalkEntry[] = [];
 * for await (const step of fs.walk("data")) steps.push(step);
 * deepStrictEqual(steps, [
 *   ["data", ["raw"], ["a.csv"]],
 *   ["data/raw", [], ["b.bin"]],
 * ]);
 * ```
 */
export type WalkEntry = [dir: string, dirs: string[], files: string[]];

/** The entry of `path`, or `undefined` when it is not in the dataset. */
async function entryOf(
  source: VerbSource,
  path: string,
): Promise<FileInfo | undefined> {
  try {
    return await source.info(path);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Whether `path` is a directory (the root is); `false` when it is missing. */
export async function isDir(
  source: VerbSource,
  path: string,
): Promise<boolean> {
  return (await entryOf(source, path))?.type === "directory";
}

/** Whether `path` is a file; `false` when it is missing. */
export async function isFile(
  source: VerbSource,
  path: string,
): Promise<boolean> {
  return (await entryOf(source, path))?.type === "file";
}

/**
 * Listed bytes of the files below `path`, or of the file `path`; 0 when it
 * is missing (as fsspec). A file the listing gave no size counts 0.
 */
export async function du(source: VerbSource, path: string): Promise<number> {
  const entry = await entryOf(source, path);
  if (entry === undefined) return 0;
  if (entry.type === "file") return entry.size ?? 0;
  const files = await Promise.all(
    (await source.find(path)).map((file) => source.info(file)),
  );
  return files.reduce((total, file) => total + (file.size ?? 0), 0);
}

/**
 * fsspec's `walk`, top-down: `[dir, dirs, files]` for `path` and each
 * directory below it, `dirs` and `files` being sorted names. Removing names
 * from `dirs` before the next step skips those directories. A file `path`
 * gives `[path, [], [""]]`, a missing one nothing. `maxdepth` (>= 1) stops
 * that many levels down.
 */
export async function* walk(
  source: VerbSource,
  path = "",
  options: { maxdepth?: number } = {},
): AsyncGenerator<WalkEntry> {
  const { maxdepth } = options;
  if (maxdepth !== undefined && !(Number.isInteger(maxdepth) && maxdepth > 0)) {
    throw new TypeError(`maxdepth must be an integer >= 1, got ${maxdepth}`);
  }
  const dir = normalizePath(path);
  let children: FileInfo[];
  try {
    children = await source.ls(dir);
  } catch (error) {
    if (error instanceof NotFoundError) return;
    throw error;
  }
  const dirs: string[] = [];
  const files: string[] = [];
  for (const child of children) {
    const name = child.name === dir
      ? ""
      : child.name.slice(dir ? dir.length + 1 : 0);
    (child.type === "directory" ? dirs : files).push(name);
  }
  yield [dir, dirs, files];
  if (maxdepth === 1) return;
  const deeper = maxdepth === undefined ? {} : { maxdepth: maxdepth - 1 };
  for (const name of dirs) {
    yield* walk(source, dir ? `${dir}/${name}` : name, deeper);
  }
}

/**
 * fsspec's `cat`: the bytes of every file `paths` names, by path. Each path
 * is a file, or a glob pattern standing for the paths it matches (one that
 * matches nothing is a {@linkcode NotFoundError}); a directory among them is
 * an `IsADirectoryError`, a missing file a `NotFoundError`.
 */
export async function cat(
  source: VerbSource,
  paths: string | readonly string[],
  options: { signal?: AbortSignal } = {},
): Promise<Record<string, Uint8Array>> {
  const expanded = new Set<string>();
  for (const path of typeof paths === "string" ? [paths] : paths) {
    const glob = compileGlob(path);
    if (glob.literal) {
      expanded.add(glob.prefix);
      continue;
    }
    const matches = await source.glob(path);
    if (matches.length === 0) throw new NotFoundError(path);
    for (const match of matches) expanded.add(match);
  }
  const keys = [...expanded];
  const bytes = await allOrNone(
    keys.map((key) => (signal) => source.catFile(key, { signal })),
    options.signal,
  );
  return Object.fromEntries(keys.map((key, i) => [key, bytes[i]]));
}

/**
 * One `Uint8Array` per request, in request order, read at the same time;
 * the first failure stops the others.
 */
export function catRanges(
  source: VerbSource,
  requests: readonly RangeRequest[],
  options: { signal?: AbortSignal } = {},
): Promise<Uint8Array[]> {
  return allOrNone(
    requests.map(({ path, start, end }) => (signal) =>
      source.catFile(path, { start, end, signal })
    ),
    options.signal,
  );
}

/**
 * Runs `tasks` at once; when one fails, aborts the others and rejects with
 * its error once they have all ended, so that no read outlives the call.
 */
async function allOrNone<T>(
  tasks: ((signal: AbortSignal) => Promise<T>)[],
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  const settled = await Promise.allSettled(
    tasks.map((task) =>
      task(both).catch((error) => {
        stop.abort(error);
        throw error;
      })
    ),
  );
  if (stop.signal.aborted) throw stop.signal.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<T>).value);
}

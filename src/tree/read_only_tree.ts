/**
 * `ReadOnlyTree`: the verbs every tree answers (`ls`, `info`, `exists`,
 * `find`, `glob`, `isDir`, `isFile`, `du`, `walk`, `cat`, `catRanges`),
 * written once over the two things a tree has of its own: its routing
 * table and its ranged `catFile`. `RepoFs`, `RepoFsPool` and `ZipTree`
 * extend it.
 *
 * @module
 */

import { IsADirectoryError, NotFoundError } from "../base/errors.ts";
import type { FileInfo } from "../base/types.ts";
import { compileGlob } from "./glob.ts";
import { normalizePath } from "./paths.ts";
import type { RoutingTable } from "./routing_table.ts";

/**
 * Options of `find`.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "data/a.csv": "1", "data/raw/b.bin": "2" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await fs.find("data"), ["data/a.csv", "data/raw/b.bin"]);
 * deepStrictEqual(await fs.find("data", { maxdepth: 1, withdirs: true }), [
 *   "data",
 *   "data/a.csv",
 *   "data/raw",
 * ]);
 * ```
 */
export interface FindOptions {
  /** Levels below the path to descend (integer >= 1); unlimited when absent. */
  maxdepth?: number | null;
  /** Include directories (and a directory path itself). */
  withdirs?: boolean;
}

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

/**
 * The verbs of a read-only tree, as `RepoFs`, `RepoFsPool` and a
 * `zipTree` answer them: paths are dataset paths (`""` is the root; leading,
 * trailing and repeated slashes and `repo://` are ignored), a missing path
 * is a {@linkcode NotFoundError}, reading a directory an
 * {@linkcode IsADirectoryError}.
 *
 * @example
 * ```ts
 * import { ReadOnlyTree, RepoFs, RepoFsPool } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, ok } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "data/a.csv": "1", "data/raw/b.bin": "22" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * await using pool = new RepoFsPool(fs, { workers: 1 });
 * for (const tree of [fs, pool]) {
 *   ok(tree instanceof ReadOnlyTree);
 *   deepStrictEqual(await tree.find("data"), ["data/a.csv", "data/raw/b.bin"]);
 *   deepStrictEqual(await tree.du("data"), 3);
 * }
 * ```
 */
export abstract class ReadOnlyTree {
  /**
   * The bytes of a file, or of `start`..`end` (end exclusive, negatives
   * from the end).
   */
  abstract catFile(
    path: string,
    options?: { start?: number; end?: number; signal?: AbortSignal },
  ): Promise<Uint8Array>;

  /**
   * The tree's routing table, built on first use.
   * @ignore
   */
  protected abstract routingTable(signal?: AbortSignal): Promise<RoutingTable>;

  /**
   * What `ls` and `info` show of table entries: copies, unless a tree
   * shows more or less.
   * @ignore
   */
  protected shown(entries: FileInfo[]): Promise<FileInfo[]> {
    return Promise.resolve(entries.map((entry) => ({ ...entry })));
  }

  /** Direct children of a directory, sorted by name; `[info]` for a file. */
  async ls(path = ""): Promise<FileInfo[]> {
    const key = normalizePath(path);
    const table = await this.routingTable();
    const entry = entryIn(table, key);
    return await this.shown(
      entry.type === "file" ? [entry] : table.children(key),
    );
  }

  /** The entry of a path; `info("")` is the root. */
  async info(path: string): Promise<FileInfo> {
    const key = normalizePath(path);
    const [shown] = await this.shown([
      entryIn(await this.routingTable(), key),
    ]);
    return shown;
  }

  /** Whether the path is in the tree. */
  async exists(path: string): Promise<boolean> {
    const key = normalizePath(path);
    return (await this.routingTable()).get(key) !== undefined;
  }

  /**
   * Paths below `path`, sorted, per the seed's find rules: with `withdirs`
   * a directory `path` itself is included; a file `path` gives `[path]`;
   * a missing one `[]`.
   */
  async find(path = "", options: FindOptions = {}): Promise<string[]> {
    const key = normalizePath(path);
    const maxdepth = options.maxdepth ?? undefined;
    if (
      maxdepth !== undefined && (!Number.isInteger(maxdepth) || maxdepth < 1)
    ) {
      throw new TypeError(`maxdepth must be an integer >= 1, got ${maxdepth}`);
    }
    const withdirs = options.withdirs ?? false;
    return (await this.routingTable()).find(key, { maxdepth, withdirs });
  }

  /** Paths matching a glob pattern, sorted, with fsspec's rules. */
  async glob(pattern: string): Promise<string[]> {
    const glob = compileGlob(pattern);
    const table = await this.routingTable();
    if (glob.literal) {
      return table.get(glob.prefix) === undefined ? [] : [glob.prefix];
    }
    return table.find(glob.prefix, { maxdepth: glob.depth, withdirs: true })
      .filter((key) => glob.matches(key, table.get(key)!.type === "directory"));
  }

  /** Whether `path` is a directory (the root is); `false` when it is missing. */
  async isDir(path: string): Promise<boolean> {
    return (await this.#entryOrNot(path))?.type === "directory";
  }

  /** Whether `path` is a file; `false` when it is missing. */
  async isFile(path: string): Promise<boolean> {
    return (await this.#entryOrNot(path))?.type === "file";
  }

  /**
   * Listed bytes of the files below `path`, or of the file `path`; 0 when
   * it is missing (as fsspec). A file the listing gave no size counts 0.
   */
  async du(path: string): Promise<number> {
    const entry = await this.#entryOrNot(path);
    if (entry === undefined) return 0;
    if (entry.type === "file") return entry.size ?? 0;
    const table = await this.routingTable();
    return (await this.find(path)).reduce(
      (total, file) => total + (table.get(file)!.size ?? 0),
      0,
    );
  }

  /**
   * `[dir, dirs, files]` for `path` and every directory below it, top-down,
   * as fsspec's `walk`, `dirs` and `files` being sorted names. Removing
   * names from `dirs` before the next step skips those directories. A file
   * `path` gives `[path, [], [""]]`, a missing one nothing. `maxdepth`
   * (>= 1) stops that many levels down.
   */
  async *walk(
    path = "",
    options: { maxdepth?: number } = {},
  ): AsyncGenerator<WalkEntry> {
    const { maxdepth } = options;
    if (
      maxdepth !== undefined && !(Number.isInteger(maxdepth) && maxdepth > 0)
    ) {
      throw new TypeError(`maxdepth must be an integer >= 1, got ${maxdepth}`);
    }
    const dir = normalizePath(path);
    let children: FileInfo[];
    try {
      children = await this.ls(dir);
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
      yield* this.walk(dir ? `${dir}/${name}` : name, deeper);
    }
  }

  /**
   * The bytes of every file `paths` names, by path (fsspec's `cat`). Each
   * is a file, or a glob pattern standing for the paths it matches (one
   * that matches nothing is a {@linkcode NotFoundError}); a directory among
   * them is an {@linkcode IsADirectoryError}. The files are read at the
   * same time; the first failure stops the others, as aborting `signal`
   * does.
   */
  async cat(
    paths: string | string[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Record<string, Uint8Array>> {
    const expanded = new Set<string>();
    for (const path of typeof paths === "string" ? [paths] : paths) {
      const glob = compileGlob(path);
      if (glob.literal) {
        expanded.add(glob.prefix);
        continue;
      }
      const matches = await this.glob(path);
      if (matches.length === 0) throw new NotFoundError(path);
      for (const match of matches) expanded.add(match);
    }
    const keys = [...expanded];
    const bytes = await allOrNone(
      keys.map((key) => (signal) => this.catFile(key, { signal })),
      options.signal,
    );
    return Object.fromEntries(keys.map((key, i) => [key, bytes[i]]));
  }

  /**
   * One `Uint8Array` per request, in request order, read at the same time.
   * The first failure stops the others, as aborting `signal` does.
   */
  catRanges(
    requests: RangeRequest[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Uint8Array[]> {
    return allOrNone(
      requests.map(({ path, start, end }) => (signal) =>
        this.catFile(path, { start, end, signal })
      ),
      options.signal,
    );
  }

  /** The table entry of `path`, or `undefined` when it is not in the tree. */
  async #entryOrNot(path: string): Promise<FileInfo | undefined> {
    const key = normalizePath(path);
    return (await this.routingTable()).get(key);
  }
}

/**
 * The entry of `key` in `table`: a {@linkcode NotFoundError} when there is
 * none; with `want` `"file"`, an {@linkcode IsADirectoryError} for a
 * directory.
 */
export function entryIn(
  table: RoutingTable,
  key: string,
  want?: "file",
): FileInfo {
  const entry = table.get(key);
  if (entry === undefined) throw new NotFoundError(key);
  if (want === "file" && entry.type === "directory") {
    throw new IsADirectoryError(key);
  }
  return entry;
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

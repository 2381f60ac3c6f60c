/**
 * The routing table: the dataset's flat file list rebuilt as a tree. One
 * `Map` from key to {@linkcode FileInfo}, every ancestor of a file present as
 * a (synthetic) directory, the root as `""`, and a children index so that
 * listing a directory costs O(children), not O(table).
 *
 * @module
 */

import { checksumKind, listedChecksum } from "../base/checksum.ts";
import { asOriginal, type ListedFile } from "../base/listed_file.ts";
import { listedKey, parentKey } from "./paths.ts";
import type { FileInfo, Logger, TabularView } from "../base/types.ts";
import { shortPath } from "../base/short_path.ts";

/**
 * The longest listed path taken, in UTF-16 units: Windows' longest path.
 * The table holds every ancestor's key, so its size grows with the square
 * of a path's length.
 */
const LONGEST_PATH = 32_767;

/**
 * A listing entry left out of the table, and why.
 *
 * @example
 * ```ts
 * import { type RejectedEntry, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.txt": "hello" },
 *   entries: [{ directoryLabel: "..", filename: "passwd", file: "x" }],
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await fs.find(""), ["a.txt"]); // the tree holds the rest
 * const [rejected]: RejectedEntry[] = await fs.rejectedEntries();
 * strictEqual(rejected.path, "../passwd");
 * match(rejected.reason, /has a "\.\." segment/);
 * ```
 */
export interface RejectedEntry {
  /** The path as listed. */
  path: string;
  /** Repository file id. */
  id: number;
  /** Why it was left out. */
  reason: string;
}

/** The compact, structured-clone and JSON safe form of a table's files. */
export interface CompactListing {
  /** Table keys of the files. */
  paths: string[];
  /** File ids, parallel to `paths`. */
  ids: number[];
  /** Listed sizes, parallel to `paths`. */
  sizes: (number | null)[];
  /** Distinct media types. */
  contentTypes: string[];
  /** Index into `contentTypes` per file, `-1` for none. */
  contentTypeIndex: number[];
  /** Distinct checksum types. */
  checksumTypes: string[];
  /** Index into `checksumTypes` per file, `-1` for none. */
  checksumTypeIndex: number[];
  /** Listed checksum per file, `null` for none. */
  checksums: (string | null)[];
  /** Indexes (into `paths`) of the ingested tabular files. */
  tabular: number[];
  /** Indexes of the files read with `format=original`. */
  originals: number[];
  /** Indexes of the restricted (or embargoed) files. */
  restricted: number[];
  /** Index and end date of each embargoed file. */
  embargoes: [index: number, until: string][];
}

/**
 * What {@linkcode RoutingTable.builder} returns: `add` each listed file,
 * then `finish` once.
 */
export interface RoutingTableBuilder {
  /** Adds one listed file (or records why it is left out). */
  add(file: ListedFile): void;
  /** Adds a directory at a normalised key, empty until files come below it. */
  addDirectory(key: string, id: number): void;
  /** The table; call once, after the last `add`. */
  finish(): RoutingTable;
}

/**
 * The dataset as a tree. Build it once per listing with
 * {@linkcode RoutingTable.build}; it is read-only afterwards.
 */
export class RoutingTable {
  readonly #entries = new Map<string, FileInfo>();
  readonly #children = new Map<string, string[]>();
  readonly #unsorted = new Set<string>();
  /** Listing entries that could not become table entries. */
  readonly rejected: RejectedEntry[] = [];
  #fileCount = 0;

  private constructor() {
    this.#entries.set("", directoryInfo(""));
    this.#children.set("", []);
  }

  /**
   * Builds the table in one pass. Duplicate paths keep the first file; a file
   * whose path another file needs as a directory gives way to the directory.
   * Both are reported through `logger.warn`, as are paths that cannot be keys
   * (absolute, a `.` or `..` segment, a NUL, an empty name, longer than
   * 32,767 characters). With `tabular`
   * `"original"`, ingested tabular files enter as their original uploads.
   */
  static build(
    files: Iterable<ListedFile>,
    logger?: Logger,
    tabular: TabularView = "archival",
  ): RoutingTable {
    const builder = RoutingTable.builder(logger, tabular);
    for (const file of files) builder.add(file);
    return builder.finish();
  }

  /**
   * A table built one listed file at a time, by the rules of
   * {@linkcode RoutingTable.build}, so that a listing read in pages is
   * never held whole.
   */
  static builder(
    logger?: Logger,
    tabular: TabularView = "archival",
  ): RoutingTableBuilder {
    const table = new RoutingTable();
    const contentTypes = new Map<string, string>();
    const view = tabular === "original"
      ? asOriginal
      : (file: ListedFile) => file;
    return {
      add: (file) => table.#addListed(view(file), contentTypes, logger),
      addDirectory: (key, id) => table.#addDirectory(key, id, logger),
      finish: () => table,
    };
  }

  /** Rebuilds a table from {@linkcode RoutingTable.toCompact}'s output. */
  static fromCompact(compact: CompactListing, logger?: Logger): RoutingTable {
    return RoutingTable.build(compactFiles(compact), logger);
  }

  /** Number of file entries. */
  get fileCount(): number {
    return this.#fileCount;
  }

  /** Number of directory entries, the root included. */
  get directoryCount(): number {
    return this.#entries.size - this.#fileCount;
  }

  /** The entry at a normalised key, if any. */
  get(key: string): FileInfo | undefined {
    return this.#entries.get(key);
  }

  /** Direct children of a directory key, sorted by name; `[]` if none. */
  children(key: string): FileInfo[] {
    const keys = this.#children.get(key);
    if (keys === undefined) return [];
    if (this.#unsorted.delete(key)) keys.sort(compareKeys);
    return keys.map((k) => this.#entries.get(k)!);
  }

  /**
   * Keys below `key` per the seed's find rules: the root is never returned,
   * `maxdepth` counts levels below `key`, directories only with `withdirs`
   * (then a directory `key` itself too). A file `key` gives `[key]`. Sorted.
   */
  find(
    key: string,
    options: { maxdepth?: number; withdirs?: boolean } = {},
  ): string[] {
    const { maxdepth, withdirs = false } = options;
    const start = this.#entries.get(key);
    if (start === undefined) return [];
    if (start.type === "file") return [key];
    const found: string[] = withdirs && key !== "" ? [key] : [];
    // A stack, not recursion: a listed path may be thousands of levels deep.
    const pending: [dir: string, depth: number][] = [[key, 1]];
    for (let next; (next = pending.pop()) !== undefined;) {
      const [dir, depth] = next;
      for (const child of this.#children.get(dir)!) {
        const isDir = this.#entries.get(child)!.type === "directory";
        if (!isDir || withdirs) found.push(child);
        if (isDir && (maxdepth === undefined || depth < maxdepth)) {
          pending.push([child, depth + 1]);
        }
      }
    }
    return found.sort(compareKeys);
  }

  /** The table's files in compact form, for transfer. */
  toCompact(): CompactListing {
    const compact: CompactListing = {
      paths: [],
      ids: [],
      sizes: [],
      contentTypes: [],
      contentTypeIndex: [],
      checksumTypes: [],
      checksumTypeIndex: [],
      checksums: [],
      tabular: [],
      originals: [],
      restricted: [],
      embargoes: [],
    };
    const contentType = indexer(compact.contentTypes);
    const checksumType = indexer(compact.checksumTypes);
    for (const info of this.#entries.values()) {
      if (info.type !== "file") continue;
      const index = compact.paths.length;
      if (info.tabular) compact.tabular.push(index);
      if (info.format === "original") compact.originals.push(index);
      if (info.restricted) compact.restricted.push(index);
      if (info.embargoedUntil !== undefined) {
        compact.embargoes.push([index, info.embargoedUntil]);
      }
      compact.paths.push(info.name);
      compact.ids.push(info.id!);
      compact.sizes.push(info.size);
      compact.contentTypeIndex.push(contentType(info.contentType));
      compact.checksumTypeIndex.push(checksumType(info.checksum?.type));
      compact.checksums.push(info.checksum?.value ?? null);
    }
    return compact;
  }

  #addListed(
    file: ListedFile,
    contentTypes: Map<string, string>,
    logger?: Logger,
  ): void {
    let key: string;
    try {
      if (file.path.startsWith("/")) {
        throw new TypeError("the listed path is absolute");
      }
      if (file.path.endsWith("/")) {
        throw new TypeError("the file name is empty");
      }
      if (file.path.length > LONGEST_PATH) {
        throw new TypeError(
          `the path is ${file.path.length} characters long, longer than any system takes (${LONGEST_PATH})`,
        );
      }
      key = listedKey(file.path);
      if (key === "") throw new TypeError("the file has no name");
    } catch (error) {
      this.#reject(file.path, file.id, (error as Error).message, logger);
      return;
    }
    const info: FileInfo = { name: key, type: "file", size: file.size };
    info.id = file.id;
    if (file.contentType !== undefined) {
      let shared = contentTypes.get(file.contentType);
      if (shared === undefined) {
        shared = file.contentType;
        contentTypes.set(shared, shared);
      }
      info.contentType = shared;
    }
    const checksum = listedChecksum(file);
    const md5 = file.md5 ??
      (checksum && checksumKind(checksum.type) === "md5"
        ? checksum.value
        : undefined);
    if (md5 !== undefined) info.md5 = md5;
    if (checksum !== undefined) {
      info.checksum = Object.freeze({
        type: checksum.type,
        value: checksum.value,
      });
    }
    if (file.tabular) info.tabular = true;
    if (file.format === "original") info.format = "original";
    if (file.restricted) info.restricted = true;
    if (file.embargoedUntil !== undefined) {
      info.embargoedUntil = file.embargoedUntil;
    }
    this.#addFile(info, logger);
  }

  #reject(path: string, id: number, reason: string, logger?: Logger): void {
    this.rejected.push({ path, id, reason });
    logger?.warn(
      `Listing entry ${id} ("${shortPath(path)}") left out: ${reason}`,
    );
  }

  #addFile(info: FileInfo, logger?: Logger): void {
    const existing = this.#entries.get(info.name);
    if (existing !== undefined) {
      const kept = existing.type === "directory"
        ? "a directory of that path"
        : `file ${existing.id}`;
      this.#reject(info.name, info.id!, `${kept} is already there`, logger);
      return;
    }
    this.#entries.set(info.name, info);
    this.#fileCount++;
    this.#link(info.name, logger);
  }

  #addDirectory(key: string, id: number, logger?: Logger): void {
    const existing = this.#entries.get(key);
    if (existing?.type === "directory") return;
    if (existing !== undefined) {
      this.#reject(key, id, `file ${existing.id} is already there`, logger);
      return;
    }
    this.#entries.set(key, directoryInfo(key));
    this.#children.set(key, []);
    this.#link(key, logger);
  }

  /** Makes `child` a child of its parent, making the parent directories needed. */
  #link(child: string, logger?: Logger): void {
    for (;;) {
      const parent = parentKey(child);
      const holder = this.#entries.get(parent);
      if (holder?.type === "directory") {
        this.#children.get(parent)!.push(child);
        this.#unsorted.add(parent);
        return;
      }
      if (holder !== undefined) {
        const reason = "files are listed below it, so it is a directory";
        this.#reject(parent, holder.id!, reason, logger);
        this.#fileCount--;
      }
      this.#entries.set(parent, directoryInfo(parent));
      this.#children.set(parent, [child]);
      if (holder !== undefined) return;
      child = parent;
    }
  }
}

function directoryInfo(name: string): FileInfo {
  return { name, type: "directory", size: 0 };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Numbers distinct values in order of first use, adding each new one to
 * `values`; `-1` stands for none.
 */
function indexer(values: string[]): (value: string | undefined) => number {
  const indexes = new Map<string, number>();
  return (value) => {
    if (value === undefined) return -1;
    let index = indexes.get(value);
    if (index === undefined) {
      index = values.push(value) - 1;
      indexes.set(value, index);
    }
    return index;
  };
}

function* compactFiles(compact: CompactListing): Iterable<ListedFile> {
  const tabular = new Set(compact.tabular);
  const originals = new Set(compact.originals);
  const restricted = new Set(compact.restricted);
  const embargoes = new Map(compact.embargoes);
  for (let i = 0; i < compact.paths.length; i++) {
    const file: ListedFile = {
      path: compact.paths[i],
      id: compact.ids[i],
      size: compact.sizes[i],
    };
    const typeIndex = compact.contentTypeIndex[i];
    if (typeIndex >= 0) file.contentType = compact.contentTypes[typeIndex];
    const checksumIndex = compact.checksumTypeIndex[i];
    if (checksumIndex >= 0) {
      file.checksum = {
        type: compact.checksumTypes[checksumIndex],
        value: compact.checksums[i]!,
      };
    }
    if (tabular.has(i)) file.tabular = true;
    if (originals.has(i)) file.format = "original";
    if (restricted.has(i)) file.restricted = true;
    const until = embargoes.get(i);
    if (until !== undefined) file.embargoedUntil = until;
    yield file;
  }
}

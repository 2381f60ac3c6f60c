/**
 * Paths through zip archives on the command line: `data.zip!/docs/a.txt`
 * names member `docs/a.txt` of the dataset's `data.zip`, `a.zip!/b.zip!/x`
 * a member of a zip inside a zip, and `data.zip!` (or `data.zip!/`) the
 * archive's root. {@linkcode ArchiveView} takes such paths and plain
 * dataset paths alike, and names what it finds the same way, so that every
 * command works inside archives unchanged.
 *
 * @module
 */

import { IsADirectoryError } from "../base/errors.ts";
import type { FileInfo } from "../base/types.ts";
import { normalizePath } from "../tree/paths.ts";
import type { FindOptions, ReadOnlyTree } from "../tree/read_only_tree.ts";
import type { RepoFs } from "../repo_fs.ts";
import { type RepoFile, repoFile } from "../repo_file.ts";
import { ZipTree } from "../formats/zip/zip_tree.ts";
import { ZipFormatError } from "../formats/zip/zip_format_error.ts";
import type { Context } from "./context.ts";
import { quotePath } from "./io.ts";

/** What separates an archive's path from a path inside it. */
const SEPARATOR = "!/";

/** What the listing commands and `get` ask of a tree. */
export type Browsable = Pick<
  RepoFs,
  "ls" | "info" | "exists" | "find" | "glob" | "rejectedEntries"
>;

/** A path split at its `!/`: the archives it goes through, then the rest. */
export interface ArchivePath {
  /** Each archive's path inside the one before (the first in the dataset). */
  archives: string[];
  /** The path inside the last archive, or in the dataset when there is none. */
  inner: string;
}

/** Splits `path` at each `!/`; a trailing `!` is the archive's root. */
export function splitArchivePath(path: string): ArchivePath {
  const parts = (path.endsWith("!") ? `${path}/` : path).split(SEPARATOR);
  return { archives: parts.slice(0, -1), inner: parts.at(-1)! };
}

/** The dataset of the command line, seen through {@linkcode ArchiveView}. */
export async function datasetView(context: Context): Promise<ArchiveView> {
  return new ArchiveView(await context.dataset());
}

/**
 * The dataset with its zip archives open as folders: every verb takes a
 * dataset path or a path through archives, and names entries inside an
 * archive by such paths (`data.zip!/docs/a.txt`). Each archive's central
 * directory is read once.
 */
export class ArchiveView implements Browsable {
  /** The dataset. */
  readonly dataset: RepoFs;
  readonly #trees = new Map<string, ZipTree>();

  /** @param dataset the dataset whose archives are opened */
  constructor(dataset: RepoFs) {
    this.dataset = dataset;
  }

  /** Direct children of a directory (or `[info]` of a file). */
  async ls(path = ""): Promise<FileInfo[]> {
    const { tree, inner, prefix, named } = this.#where(path);
    return (await within(prefix, tree.ls(inner))).map(named);
  }

  /** The entry of a path. */
  async info(path: string): Promise<FileInfo> {
    const { tree, inner, prefix, named } = this.#where(path);
    return named(await within(prefix, tree.info(inner)));
  }

  /** Whether the path exists (an archive that cannot be read rejects). */
  exists(path: string): Promise<boolean> {
    const { tree, inner, prefix } = this.#where(path);
    return within(prefix, tree.exists(inner));
  }

  /** Paths below `path`, as `RepoFs.find` gives them. */
  async find(path = "", options: FindOptions = {}): Promise<string[]> {
    const { tree, inner, prefix } = this.#where(path);
    return (await within(prefix, tree.find(inner, options)))
      .map((p) => prefix + p);
  }

  /** Paths matching a glob pattern; the archives' parts are plain paths. */
  async glob(pattern: string): Promise<string[]> {
    const { tree, inner, prefix } = this.#where(pattern);
    return (await within(prefix, tree.glob(inner))).map((p) => prefix + p);
  }

  /** A file opened for reading; a zip member's whole reads check its CRC-32. */
  async open(path: string): Promise<RepoFile> {
    const { tree, inner, prefix } = this.#where(path);
    if (!(tree instanceof ZipTree)) return await this.dataset.open(inner);
    const member = await within(prefix, tree.open(inner));
    return repoFile(
      path,
      member.size,
      (options) => member.read(options),
      (options) => member.stream(options),
    );
  }

  /** The bytes of a file, or `start`..`end` of it. */
  catFile(
    path: string,
    options: { start?: number; end?: number; signal?: AbortSignal } = {},
  ): Promise<Uint8Array> {
    const { tree, inner, prefix } = this.#where(path);
    return within(prefix, tree.catFile(inner, options));
  }

  /** The archive holding `path` and the path in it; `undefined` for a dataset path. */
  archiveOf(path: string): { tree: ZipTree; inner: string } | undefined {
    const { tree, inner } = this.#where(path);
    return tree instanceof ZipTree ? { tree, inner } : undefined;
  }

  /** The dataset's listing entries left out of its tree (archives have none). */
  rejectedEntries(): ReturnType<RepoFs["rejectedEntries"]> {
    return this.dataset.rejectedEntries();
  }

  /** The tree that holds `path`, the path in it, and how to name its entries. */
  #where(path: string) {
    const { archives, inner } = splitArchivePath(path);
    let tree: ReadOnlyTree = this.dataset;
    let prefix = "";
    for (const archive of archives) {
      const key = normalizePath(archive);
      prefix += `${key}${SEPARATOR}`;
      tree = this.#trees.get(prefix) ??
        this.#trees.set(prefix, new ZipTree(tree, key)).get(prefix)!;
    }
    const root = prefix.slice(0, -1);
    const named = (entry: FileInfo): FileInfo => ({
      ...entry,
      name: prefix === ""
        ? entry.name
        : entry.name === ""
        ? root
        : prefix + entry.name,
    });
    return { tree, inner, prefix, named };
  }
}

/**
 * `promise`, with an archive's format error or a member that is a
 * directory made to name the archive's path as the user wrote it; other
 * errors (a missing path, the repository's answers) are the commands' to
 * explain.
 */
async function within<T>(prefix: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    const inside = error instanceof ZipFormatError ||
      error instanceof IsADirectoryError;
    if (prefix === "" || !inside) throw error;
    throw new Error(`${quotePath(prefix)}: ${error.message}`, {
      cause: error,
    });
  }
}

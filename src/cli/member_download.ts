/**
 * `get` of zip members (`get 'data.zip!/tables/**' --out DIR`): each member
 * is written below DIR at its path inside its archive, as `unzip -d DIR`
 * does, through the same temporary-file-and-rename download as a dataset
 * file; its CRC-32 is checked before the rename, so a member whose bytes
 * do not match is not kept; `--resume` keeps a member already there when
 * its size and CRC-32 match the archive's central directory.
 *
 * @module
 */

import {
  type Downloaded,
  downloadToFile,
  type DownloadToFileOptions,
} from "../download/file_download.ts";
import type { RepoFsPool } from "../pool/pool.ts";
import type { FileInfo } from "../base/types.ts";
import { crc32 } from "../formats/zip/crc32.ts";
import { readCentralDirectory } from "../formats/zip/central_directory.ts";
import type { ZipTree } from "../formats/zip/zip_tree.ts";
import { type ArchiveView, splitArchivePath } from "./archive_path.ts";
import { type Downloader, isComplete } from "./download.ts";
import { lstatOrNull } from "./safe_path.ts";

/** Selected files under the names they are written as. */
export interface Placed {
  /** The files, members renamed to their path inside their archive. */
  files: FileInfo[];
  /** Files whose place another selected file already takes. */
  clashes: FileInfo[];
  /** The selected path of each renamed member, by its new name. */
  members: Map<string, string>;
}

/**
 * Renames each member of `files` to its path inside its (innermost)
 * archive; a file whose new name another selected file has is set apart.
 */
export function placeMembers(files: readonly FileInfo[]): Placed {
  const placed: Placed = { files: [], clashes: [], members: new Map() };
  const taken = new Set<string>();
  for (const file of files) {
    const { archives, inner } = splitArchivePath(file.name);
    const name = archives.length === 0 ? file.name : inner;
    if (taken.has(name)) {
      placed.clashes.push(file);
      continue;
    }
    taken.add(name);
    if (archives.length > 0) placed.members.set(name, file.name);
    placed.files.push({ ...file, name });
  }
  return placed;
}

/**
 * Downloads by placed name: a member from its archive on this thread
 * (verified `crc32`), any other file through the pool. For `--resume`, a
 * member already on disk is complete when its size and CRC-32 are the
 * archive's.
 */
export function placedDownloads(
  view: ArchiveView,
  members: ReadonlyMap<string, string>,
  pool: RepoFsPool | undefined,
): Downloader {
  const directories = new Map<ZipTree, Promise<Map<string, number>>>();
  const memberCrc = async (path: string) => {
    const { tree, inner } = view.archiveOf(path)!;
    let crcs = directories.get(tree);
    if (crcs === undefined) {
      crcs = readCentralDirectory(tree.source, tree.path).then(({ entries }) =>
        new Map(entries.map((entry) => [entry.name, entry.crc32]))
      );
      directories.set(tree, crcs);
    }
    return (await crcs).get(inner);
  };
  return {
    async downloadToFile(
      name: string,
      target: string,
      options: DownloadToFileOptions = {},
    ): Promise<Downloaded> {
      const path = members.get(name);
      if (path === undefined) {
        return await pool!.downloadToFile(name, target, options);
      }
      const member = await view.open(path);
      const info = { name, type: "file" as const, size: member.size };
      const done = await downloadToFile(member, info, target, options);
      return { ...done, verified: "crc32" };
    },
    async isComplete(target, file, signal) {
      const path = members.get(file.name);
      if (path === undefined) return await isComplete(target, file, signal);
      const stat = await lstatOrNull(target);
      if (!stat?.isFile || stat.size !== file.size) return false;
      return await fileCrc(target, signal) === await memberCrc(path);
    },
  };
}

/** The CRC-32 of the file at `path`. */
async function fileCrc(path: string, signal: AbortSignal): Promise<number> {
  using file = await Deno.open(path);
  const buffer = new Uint8Array(1 << 20);
  let crc = 0;
  for (let n; (n = await file.read(buffer)) !== null;) {
    signal.throwIfAborted();
    crc = crc32(buffer.subarray(0, n), crc);
  }
  return crc;
}

/**
 * `get` of zip members (`get 'data.zip!/tables/**' --out DIR`): each member
 * is written below DIR at its path inside its archive, as `unzip -d DIR`
 * does, through the same temporary-file-and-rename download as a dataset
 * file; its CRC-32 is checked before the rename, so a member whose bytes
 * do not match is not kept.
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
import { type ArchiveView, splitArchivePath } from "./archive_path.ts";

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
 * (verified `crc32`), any other file through the pool.
 */
export function placedDownloads(
  view: ArchiveView,
  members: ReadonlyMap<string, string>,
  pool: RepoFsPool | undefined,
): Pick<RepoFsPool, "downloadToFile"> {
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
  };
}

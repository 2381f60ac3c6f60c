/**
 * A file as the repository lists it: what the listing parser produces and
 * the routing table consumes.
 *
 * @module
 */

import type { Checksum } from "./types.ts";

/** A file as the listing gives it, before it becomes a table entry. */
export interface ListedFile {
  /** `<directoryLabel>/<filename>` as listed, not yet normalised. */
  path: string;
  /** Repository file id. */
  id: number;
  /** Listed size; `null` when the listing gave none. */
  size: number | null;
  /** Listed media type. */
  contentType?: string;
  /** Listed MD5. */
  md5?: string;
  /** Listed checksum (of the original upload, for an ingested tabular file). */
  checksum?: Checksum;
  /** An ingested tabular file: served longer than listed. */
  tabular?: boolean;
  /** An ingested tabular file's original upload, when the listing names it. */
  original?: { path: string; size: number | null; contentType?: string };
  /** Read with `format=original`: the original upload of an ingested tabular file. */
  format?: "original";
  /** Restricted or embargoed: reading it needs a token with access. */
  restricted?: boolean;
  /** The day an embargo ends (`YYYY-MM-DD`), while it holds. */
  embargoedUntil?: string;
}

/**
 * An ingested tabular file seen as its original upload: the original's
 * path, size and media type, read with `format=original`, its bytes exact
 * (no longer `tabular`). A file without a listed original is returned as
 * it is.
 */
export function asOriginal(file: ListedFile): ListedFile {
  const { original, tabular: _tabular, contentType: _type, ...rest } = file;
  if (original === undefined) return file;
  const seen: ListedFile = {
    ...rest,
    path: original.path,
    size: original.size,
    format: "original",
  };
  if (original.contentType !== undefined) {
    seen.contentType = original.contentType;
  }
  return seen;
}

/**
 * A file as a read knows it.
 *
 * @module
 */

/** What the reader knows of a file before reading it. */
export interface ContentFile {
  /** The repository's file id. */
  id: number;
  /** Listed size; `null` when the listing gave none. */
  size: number | null;
  /** An ingested tabular file: served longer than listed. */
  tabular?: boolean;
  /** `"original"`: the original upload of an ingested tabular file. */
  format?: "original";
  /** Listed media type. */
  contentType?: string;
  /** Listed as restricted or embargoed. */
  restricted?: boolean;
  /** The day an embargo ends (`YYYY-MM-DD`), while it holds. */
  embargoedUntil?: string;
  /**
   * The size an earlier answer in this read gave: every later answer must
   * give the same, whatever the listing allows.
   */
  answeredSize?: number;
}

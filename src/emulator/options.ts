/**
 * What the emulator serves: the option types of `startEmulator`.
 *
 * @module
 */

import type { EmulatorFaults } from "./faults.ts";

/**
 * One file with control over how the listing describes it.
 *
 * @example
 * ```ts
 * import type { EmulatorFileSpec } from "./options.ts";
 * // An ingested tabular file: the listing counts fewer bytes than are served.
 * const table: EmulatorFileSpec = {
 *   content: "name\tvalue\na\t1\n",
 *   listedSize: 4,
 *   contentType: "text/tab-separated-values",
 *   tabular: true,
 * };
 * ```
 */
export interface EmulatorFileSpec {
  /** The served bytes; a string is served as UTF-8. */
  content: Uint8Array | string;
  /** `filesize` in the listing. Default: the content length; `null` omits the field. */
  listedSize?: number | null;
  /** `md5` and `checksum` in the listing. Default: the content's real MD5; `null` omits both. */
  md5?: string | null;
  /** Media type in the listing and on content answers. Default `application/octet-stream`. */
  contentType?: string;
  /** When true the access endpoint answers 403 with the repository's message. */
  restricted?: boolean;
  /**
   * An ingested tabular file: the listing's `dataFile` gets `tabularData`
   * and the original CSV's `originalFileFormat`, `originalFormatLabel`,
   * `originalFileName` (`.tab` made `.csv`, else `.csv` appended) and
   * `originalFileSize` (the content length).
   */
  tabular?: boolean;
}

/**
 * A listing entry given field by field, for names the `files` map cannot
 * express (an empty-string `directoryLabel`, hostile names).
 *
 * @example
 * ```ts
 * import type { EmulatorEntry } from "./options.ts";
 * const entry: EmulatorEntry = { directoryLabel: "", filename: "top.txt", file: "hello" };
 * ```
 */
export interface EmulatorEntry {
  /** Used verbatim; `undefined` leaves the field out of the listing. */
  directoryLabel?: string;
  /** Used verbatim. */
  filename: string;
  /** The file's content, or its full description. */
  file: EmulatorFileSpec | Uint8Array | string;
}

/**
 * Options of `startEmulator`.
 *
 * @example
 * ```ts
 * import type { EmulatorOptions } from "./options.ts";
 * const options: EmulatorOptions = {
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}', "README.md": "# hi" },
 *   token: "secret",
 *   faults: { latencyMs: 20 },
 * };
 * ```
 */
export interface EmulatorOptions {
  /**
   * Path to content. A path is split at its last `/` into `directoryLabel`
   * and `filename`; a path without `/` has no `directoryLabel`.
   */
  files?: Record<string, Uint8Array | string | EmulatorFileSpec>;
  /** Entries listed after `files` and `dir`. */
  entries?: EmulatorEntry[];
  /** A folder served recursively (dot-files included), read once at start; paths as in `files`. */
  dir?: string;
  /** The dataset's persistent id. Default `doi:10.5072/FK2/EMULATED`. */
  pid?: string;
  /** The alias of the collection holding the dataset. Default `root`. */
  alias?: string;
  /** When set, every repository request needs `X-Repo-key` equal to it, else 401. */
  token?: string;
  /** `X-Amz-Expires` of signed store URLs. Default 3600. */
  urlLifetimeSeconds?: number;
  /** Extra named versions (such as `1.0`), each with its own files. */
  versions?: Record<
    string,
    Record<string, Uint8Array | string | EmulatorFileSpec>
  >;
  /** Repository port. Default 0 (ephemeral). */
  port?: number;
  /** Object-store port. Default 0 (ephemeral). */
  storePort?: number;
  /** Interface both servers listen on. Default `127.0.0.1`. */
  hostname?: string;
  /** Fault knobs to start with; they stay adjustable through `emulator.faults`. */
  faults?: Partial<EmulatorFaults>;
}

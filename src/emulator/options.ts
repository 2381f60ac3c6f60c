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
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // An ingested tabular file: the listing counts fewer bytes than are served.
 * await using emu = await startEmulator({
 *   files: { "t.tab": { content: "name\tvalue\na\t1\n", listedSize: 4, tabular: true } },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const info = await fs.info("t.tab");
 * strictEqual(info.size, 4);
 * strictEqual(info.tabular, true);
 * strictEqual((await fs.catFile("t.tab")).byteLength, 15); // read to its real end
 * ```
 */
export interface EmulatorFileSpec {
  /** The served bytes; a string is served as UTF-8. */
  content: Uint8Array | string;
  /** `filesize` in the listing. Default: the content length; `null` omits the field. */
  listedSize?: number | null;
  /**
   * `md5` and `checksum` in the listing when `checksumType` is `MD5`.
   * Default: the real MD5 (of `original` for a tabular file); `null` omits
   * both.
   */
  md5?: string | null;
  /**
   * The listed checksum's type. Default `MD5`, listed as `md5` and
   * `checksum`; any other type is listed as `checksum` only, as real
   * installations do.
   */
  checksumType?: "MD5" | "SHA-1" | "SHA-256" | "SHA-512";
  /**
   * The listed checksum's value (a wrong one, say). Default: the real
   * digest of the content (of `original` for a tabular file); `null`
   * omits `checksum` (and `md5`).
   */
  checksum?: string | null;
  /** Media type in the listing and on content answers. Default `application/octet-stream`. */
  contentType?: string;
  /** When true the access endpoint answers 403 with the repository's message. */
  restricted?: boolean;
  /**
   * An embargo ending on this day (`YYYY-MM-DD`): the listing's
   * `dataFile.embargo.dateAvailable`; until then the access endpoint
   * answers 403 as for a restricted file.
   */
  embargo?: string;
  /**
   * A restricted or embargoed file that requests carrying the emulator's
   * `token` may read.
   */
  grantedToTokenHolder?: boolean;
  /**
   * An ingested tabular file: the listing's `dataFile` gets `tabularData`
   * and the original CSV's `originalFileFormat`, `originalFormatLabel`,
   * `originalFileName` (`.tab` made `.csv`, else `.csv` appended) and
   * `originalFileSize` (the length of `original`).
   */
  tabular?: boolean;
  /**
   * A tabular file's original upload, served for `format=original` (from
   * its own store key when redirecting). Default: the content itself. The
   * listed checksum is of these bytes, as real installations list it.
   */
  original?: Uint8Array | string;
}

/**
 * A listing entry given field by field, for names the `files` map cannot
 * express (an empty-string `directoryLabel`, hostile names).
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type EmulatorEntry, startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // An empty `directoryLabel`, which the `files` map cannot say.
 * const entry: EmulatorEntry = { directoryLabel: "", filename: "top.txt", file: "hello" };
 * await using emu = await startEmulator({ entries: [entry] });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(await fs.find(""), ["top.txt"]);
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
 * import { RepoFs, RepoHttpError } from "@x/repo-fs";
 * import { type EmulatorOptions, startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, rejects } from "node:assert/strict";
 * const options: EmulatorOptions = {
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}', "README.md": "# hi" },
 *   token: "secret",
 * };
 * await using emu = await startEmulator(options);
 * const anonymous = new RepoFs({ host: emu.host, pid: emu.pid });
 * await rejects(anonymous.ls(""), RepoHttpError); // 401 without the token
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: "secret" });
 * deepStrictEqual(await fs.find(""), ["README.md", "climate.zarr/.zgroup"]);
 * ```
 */
export interface EmulatorOptions {
  /**
   * Path to content. A path is split at its last `/` into `directoryLabel`
   * and `filename`; a path without `/` has no `directoryLabel`.
   */
  files?: Record<string, Uint8Array | string | EmulatorFileSpec>;
  /**
   * Serve the sample dataset (a Zarr store, tables, an ingested tabular
   * file, nested folders, a name with a space), listed before `files`.
   */
  sample?: boolean;
  /** Entries listed after `files` and `dir`. */
  entries?: EmulatorEntry[];
  /**
   * A folder served recursively (dot-files included), read once at start;
   * paths as in `files`. A symbolic link out of it, or back up to a folder
   * it is in, and anything but files and folders are refused.
   */
  dir?: string;
  /**
   * The dataset's persistent id, `doi:…`, `hdl:…` or `perma:…` (or any form
   * `RepoFs` takes), kept in normal form. Default `doi:10.5072/FK2/EMULATED`.
   */
  pid?: string;
  /** The alias of the collection holding the dataset. Default `root`. */
  alias?: string;
  /** When set, every repository request needs `tokenHeader` equal to it, else 401. */
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
  /**
   * An object store of your own, such as `http://127.0.0.1:8080`: redirects
   * point there, to `{storeOrigin}/repo-emulator/{key}?X-Amz-…`, and the
   * emulator starts no store. Fill a folder with `Emulator.writeStore` and
   * serve it with any static file server (nginx, say), which serves the path
   * and ignores the query. Nothing then checks the signatures, and the
   * emulator's store counters and store faults see none of those requests.
   */
  storeOrigin?: string;
  /** Interface both servers listen on. Default `127.0.0.1`. */
  hostname?: string;
  /** Faults to start with (latency, redirect or not, rules, a respond hook); they stay adjustable through `emulator.faults`. */
  faults?: Partial<EmulatorFaults>;
  /** The header that carries the token. Default `X-Repo-key`. */
  tokenHeader?: string;
  /** Collection contents are at `/api/{collectionsPath}/{alias}/contents`. Default `repos`. */
  collectionsPath?: string;
  /**
   * Every file gets a persistent id, `<dataset pid>/<6 upper-case letters
   * or digits>`, in `dataFile.persistentId`, and
   * `/api/files/:persistentId/` answers for it, as on installations that
   * register file DOIs. Default false (`persistentId` is `""`).
   */
  filePids?: boolean;
  /**
   * `true`: the whole dataset is deaccessioned: its answer has no
   * `latestVersion`, and every version is `DEACCESSIONED`. Names: those
   * versions are (`:latest` names the main version, whose `latestVersion`
   * then says `DEACCESSIONED`). Deaccessioned versions answer 404 on the
   * paged file list.
   */
  deaccessioned?: true | string[];
  /**
   * `/api/datasets/:persistentId/versions/{v}/files` pages the file list
   * (`limit`, `offset`, `totalCount`), as newer installations do. Default
   * true; false answers 404 there, as older installations do.
   */
  pagedFiles?: boolean;
  /** Most files on one page of the paged file list, whatever `limit` asks. Default 1000. */
  maxPageSize?: number;
}

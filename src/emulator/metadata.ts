/**
 * The JSON shapes the repository answers with: collection items, dataset
 * versions and file entries, shaped like the real repository's.
 *
 * @module
 */

/** A JSON object. */
type Json = Record<string, unknown>;

/** A persistent id taken apart: `doi:10.5072/FK2/X` is `doi`, `10.5072`, `FK2/X`. */
interface PidParts {
  /** The scheme before the first `:`. */
  protocol: string;
  /** Between the `:` and the first `/`. */
  authority: string;
  /** Everything after the first `/`. */
  identifier: string;
}

function parsePid(pid: string): PidParts {
  const match = /^([^:/]+):([^/]+)\/(.+)$/.exec(pid);
  if (!match) {
    throw new TypeError(
      `A pid must look like <protocol>:<authority>/<identifier>, got "${pid}"`,
    );
  }
  return { protocol: match[1], authority: match[2], identifier: match[3] };
}

/**
 * The facts every dataset-level object repeats.
 *
 * @example
 * ```ts
 * import type { DatasetFacts } from "./metadata.ts";
 * const facts: DatasetFacts = { pid: "doi:10.5072/FK2/X", datasetId: 1, createdAt: new Date() };
 * ```
 */
export interface DatasetFacts {
  /** The persistent id. */
  pid: string;
  /** The numeric dataset id. */
  datasetId: number;
  /** When the emulated dataset was made; all timestamps derive from it. */
  createdAt: Date;
}

/**
 * An item of the collection contents listing, with exactly the fields the
 * real repository sends.
 *
 * @example
 * ```ts
 * import { collectionItem } from "./metadata.ts";
 * const item = collectionItem({ pid: "doi:10.5072/FK2/X", datasetId: 1, createdAt: new Date() });
 * item.identifier; // "FK2/X"
 * ```
 */
export function collectionItem(facts: DatasetFacts): Json {
  const { protocol, authority, identifier } = parsePid(facts.pid);
  return {
    id: facts.datasetId,
    identifier,
    persistentUrl: protocol === "hdl"
      ? `https://hdl.handle.net/${authority}/${identifier}`
      : `https://doi.org/${authority}/${identifier}`,
    protocol,
    authority,
    separator: "/",
    publisher: "Emulated Repository",
    storageIdentifier: `s3://${authority}/${identifier}`,
    datasetType: "dataset",
    type: "dataset",
  };
}

/**
 * Which version a version object describes.
 *
 * @example
 * ```ts
 * import type { VersionFacts } from "./metadata.ts";
 * const draft: VersionFacts = { id: 1, internalVersionNumber: 1 };
 * const published: VersionFacts = { id: 2, internalVersionNumber: 2, name: "1.0" };
 * ```
 */
export interface VersionFacts {
  /** The version id. */
  id: number;
  /** The repository's internal counter of the version. */
  internalVersionNumber: number;
  /** A published version's number such as `1.0`; absent for the draft. */
  name?: string;
}

/**
 * A dataset version object with its files.
 *
 * @example
 * ```ts
 * import { versionObject } from "./metadata.ts";
 * const facts = { pid: "doi:10.5072/FK2/X", datasetId: 1, createdAt: new Date() };
 * versionObject(facts, { id: 1, internalVersionNumber: 1 }, []).versionState; // "DRAFT"
 * ```
 */
export function versionObject(
  facts: DatasetFacts,
  version: VersionFacts,
  files: Json[],
): Json {
  const { authority, identifier } = parsePid(facts.pid);
  const number = /^(\d+)\.(\d+)$/.exec(version.name ?? "");
  const timestamp = isoSeconds(facts.createdAt);
  return {
    id: version.id,
    datasetId: facts.datasetId,
    datasetPersistentId: facts.pid,
    datasetType: "dataset",
    storageIdentifier: `s3://${authority}/${identifier}`,
    ...(number
      ? {
        versionNumber: Number(number[1]),
        versionMinorNumber: Number(number[2]),
      }
      : {}),
    internalVersionNumber: version.internalVersionNumber,
    versionState: number ? "RELEASED" : "DRAFT",
    latestVersionPublishingState: "DRAFT",
    deaccessionLink: "",
    lastUpdateTime: timestamp,
    createTime: timestamp,
    license: {
      name: "CC0 1.0",
      uri: "http://creativecommons.org/publicdomain/zero/1.0",
      iconUri: "https://licensebuttons.net/p/zero/1.0/88x31.png",
      rightsIdentifier: "CC0-1.0",
      rightsIdentifierScheme: "SPDX",
      schemeUri: "https://spdx.org/licenses/",
      languageCode: "en",
    },
    fileAccessRequest: false,
    metadataBlocks: { citation: citationBlock() },
    files,
  };
}

/**
 * What a file entry of a listing says about one file.
 *
 * @example
 * ```ts
 * import type { FileFacts } from "./metadata.ts";
 * const facts: FileFacts = {
 *   id: 7, filename: "a.txt", contentType: "text/plain", listedSize: 2,
 *   md5: null, restricted: false, storageIdentifier: "s3://bucket:18c0-7",
 * };
 * ```
 */
export interface FileFacts {
  /** The file id. */
  id: number;
  /** Verbatim file name. */
  filename: string;
  /** Verbatim directory label; `undefined` leaves the field out. */
  directoryLabel?: string;
  /** Media type. */
  contentType: string;
  /** `filesize`; `null` leaves it out. */
  listedSize: number | null;
  /** `md5` and `checksum`; `null` leaves both out. */
  md5: string | null;
  /** Whether the file is restricted. */
  restricted: boolean;
  /** `s3://<bucket>:<key>`. */
  storageIdentifier: string;
  /** For an ingested tabular file, the uploaded CSV it was made from. */
  original?: { fileName: string; size: number };
}

/**
 * A file entry of a version's `files`.
 *
 * @example
 * ```ts
 * import { fileEntry } from "./metadata.ts";
 * const entry = fileEntry({
 *   id: 7, filename: "a.txt", contentType: "text/plain", listedSize: 2,
 *   md5: null, restricted: false, storageIdentifier: "s3://bucket:18c0-7",
 * }, 1, new Date());
 * "directoryLabel" in entry; // false
 * const table = fileEntry({
 *   id: 8, filename: "t.tab", contentType: "text/tab-separated-values",
 *   listedSize: 4, md5: null, restricted: false,
 *   storageIdentifier: "s3://bucket:18c0-8",
 *   original: { fileName: "t.csv", size: 9 },
 * }, 1, new Date());
 * (table.dataFile as { tabularData: boolean }).tabularData; // true
 * ```
 */
export function fileEntry(
  file: FileFacts,
  datasetVersionId: number,
  createdAt: Date,
): Json {
  return {
    label: file.filename,
    restricted: file.restricted,
    ...(file.directoryLabel === undefined
      ? {}
      : { directoryLabel: file.directoryLabel }),
    version: 1,
    datasetVersionId,
    dataFile: {
      id: file.id,
      persistentId: "",
      filename: file.filename,
      contentType: file.contentType,
      ...(file.listedSize === null ? {} : { filesize: file.listedSize }),
      storageIdentifier: file.storageIdentifier,
      ...(file.original === undefined ? {} : {
        originalFileFormat: "text/csv",
        originalFormatLabel: "Comma Separated Values",
        originalFileSize: file.original.size,
        originalFileName: file.original.fileName,
      }),
      rootDataFileId: -1,
      ...(file.md5 === null
        ? {}
        : { md5: file.md5, checksum: { type: "MD5", value: file.md5 } }),
      ...(file.original === undefined ? {} : { tabularData: true }),
      creationDate: createdAt.toISOString().slice(0, 10),
    },
  };
}

function citationBlock(): Json {
  const primitive = (typeName: string, value: string): Json => ({
    typeName,
    multiple: false,
    typeClass: "primitive",
    value,
  });
  return {
    displayName: "Citation Metadata",
    name: "citation",
    fields: [
      primitive("title", "Emulated dataset"),
      {
        typeName: "author",
        multiple: true,
        typeClass: "compound",
        value: [{
          authorName: primitive("authorName", "Emulator, Repo"),
          authorAffiliation: primitive("authorAffiliation", "repo-fs"),
        }],
      },
      {
        typeName: "datasetContact",
        multiple: true,
        typeClass: "compound",
        value: [{
          datasetContactName: primitive("datasetContactName", "Emulator, Repo"),
          datasetContactEmail: primitive(
            "datasetContactEmail",
            "repo@example.org",
          ),
        }],
      },
    ],
  };
}

function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

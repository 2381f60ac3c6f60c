/**
 * The JSON shapes the repository answers with: collection items, dataset
 * versions and file entries, shaped like the real repository's.
 *
 * @module
 */

/** A JSON object. */
type Json = Record<string, unknown>;

/**
 * A persistent id taken apart: `doi:10.5072/FK2/X` is `doi`, `10.5072`,
 * `/`, `FK2/X`; a `perma:ABC123` without a `/` has an empty authority and
 * separator.
 */
interface PidParts {
  /** The scheme before the first `:`. */
  protocol: string;
  /** Between the `:` and the first `/`. */
  authority: string;
  /** `/`, or `""` when the id has none. */
  separator: string;
  /** Everything after the first `/`. */
  identifier: string;
}

function parsePid(pid: string): PidParts {
  const match = /^([^:/]+):(?:([^/]+)\/)?(.+)$/.exec(pid);
  if (!match || (match[2] === undefined && match[1] !== "perma")) {
    throw new TypeError(
      `A pid must look like <protocol>:<authority>/<identifier> or perma:<identifier>, got "${pid}"`,
    );
  }
  const [, protocol, authority = "", identifier] = match;
  const separator = authority === "" ? "" : "/";
  return { protocol, authority, separator, identifier };
}

/** Where the dataset's files are stored, as the real repository names it. */
function storageOf(parts: PidParts): string {
  return `s3://${parts.authority}${parts.separator}${parts.identifier}`;
}

/** The resolver URL of a persistent id. */
function persistentUrl(parts: PidParts): string {
  const { protocol, authority, separator, identifier } = parts;
  switch (protocol) {
    case "hdl":
      return `https://hdl.handle.net/${authority}/${identifier}`;
    case "doi":
      return `https://doi.org/${authority}/${identifier}`;
    default:
      return `https://repo.example.org/citation?persistentId=${protocol}:${authority}${separator}${identifier}`;
  }
}

/** The facts every dataset-level object repeats. */
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
 */
export function collectionItem(facts: DatasetFacts): Json {
  const parts = parsePid(facts.pid);
  const { protocol, authority, separator, identifier } = parts;
  return {
    id: facts.datasetId,
    identifier,
    persistentUrl: persistentUrl(parts),
    protocol,
    authority,
    separator,
    publisher: "Emulated Repository",
    storageIdentifier: storageOf(parts),
    datasetType: "dataset",
    type: "dataset",
  };
}

/** Which version a version object describes. */
export interface VersionFacts {
  /** The version id. */
  id: number;
  /** The repository's internal counter of the version. */
  internalVersionNumber: number;
  /** A published version's number such as `1.0`; absent for the draft. */
  name?: string;
  /** The version is deaccessioned: `versionState` says `DEACCESSIONED`. */
  deaccessioned?: boolean;
}

/** A dataset version object with its files. */
export function versionObject(
  facts: DatasetFacts,
  version: VersionFacts,
  files: Json[],
): Json {
  const number = /^(\d+)\.(\d+)$/.exec(version.name ?? "");
  const timestamp = isoSeconds(facts.createdAt);
  const state = version.deaccessioned
    ? "DEACCESSIONED"
    : number
    ? "RELEASED"
    : "DRAFT";
  return {
    id: version.id,
    datasetId: facts.datasetId,
    datasetPersistentId: facts.pid,
    datasetType: "dataset",
    storageIdentifier: storageOf(parsePid(facts.pid)),
    ...(number
      ? {
        versionNumber: Number(number[1]),
        versionMinorNumber: Number(number[2]),
      }
      : {}),
    internalVersionNumber: version.internalVersionNumber,
    versionState: state,
    latestVersionPublishingState: "DRAFT",
    ...(version.deaccessioned
      ? { deaccessionNote: "Withdrawn in the emulator." }
      : {}),
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

/** What a file entry of a listing says about one file. */
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
  /** `checksum`, and `md5` too when its type is `MD5`; `null` leaves both out. */
  checksum: { type: string; value: string } | null;
  /** Whether the file is restricted. */
  restricted: boolean;
  /** `embargo.dateAvailable`: the day an embargo ends; `undefined` for none. */
  embargo?: string;
  /** `s3://<bucket>:<key>`. */
  storageIdentifier: string;
  /** For an ingested tabular file, the uploaded CSV it was made from. */
  original?: { fileName: string; size: number };
}

/** A file entry of a version's `files`. */
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
      ...(file.checksum?.type === "MD5" ? { md5: file.checksum.value } : {}),
      ...(file.checksum === null ? {} : { checksum: { ...file.checksum } }),
      ...(file.original === undefined ? {} : { tabularData: true }),
      ...(file.embargo === undefined ? {} : {
        embargo: { dateAvailable: file.embargo, reason: "Emulated embargo" },
      }),
      creationDate: createdAt.toISOString().slice(0, 10),
    },
  };
}

/** Six base-36 digits: 36^6 ids before two files share a persistent id. */
const FILE_PID_SPACE = 36 ** 6;

/**
 * The persistent id of a file, as installations that register file DOIs
 * mint it: the dataset's, a `/`, and six upper-case letters or digits
 * derived from the file id (distinct for distinct ids below 36^6).
 */
export function filePid(datasetPid: string, fileId: number): string {
  // An affine map with a multiplier prime to 36 permutes 0 .. 36^6 - 1.
  const code = (fileId * 1_000_003 + 46_656) % FILE_PID_SPACE;
  return `${datasetPid}/${code.toString(36).toUpperCase().padStart(6, "0")}`;
}

/** A version object without its files, as the list of versions gives it. */
export function versionSummary(version: Json): Json {
  const { files: _files, ...summary } = version;
  return summary;
}

/**
 * The answer of `/api/files/:persistentId/` for a file entry of a version:
 * the entry, with the version it belongs to (`datasetPersistentId` among
 * its fields).
 */
export function fileAnswer(entry: Json, version: Json): Json {
  return { ...entry, datasetVersion: versionSummary(version) };
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

/**
 * The emulated dataset, built once at start: every file's bytes (and a
 * tabular file's original upload), checksum, id and storage key, indexes by
 * id and by store path, and the JSON answers encoded ahead of time so that
 * requests cost a map lookup.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { checksumKind } from "../base/checksum.ts";
import {
  collectionItem,
  type DatasetFacts,
  fileEntry,
  filePid,
  versionObject,
} from "./metadata.ts";
import type {
  EmulatorEntry,
  EmulatorFileSpec,
  EmulatorOptions,
} from "./options.ts";
import { type DatasetSources, toFileSpec } from "./sources.ts";

const BUCKET = "repo-emulator";
const FIRST_FILE_ID = 1001;
const MAIN_VERSION_NAMES = new Set([":latest", ":draft", ":latest-published"]);
const encoder = new TextEncoder();

/** One served file. */
export interface StoredFile {
  /** The file id. */
  id: number;
  /** The bytes served. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Media type of content answers. */
  contentType: string;
  /** Whether the access endpoint refuses it. */
  restricted: boolean;
  /** The day an embargo ends (`YYYY-MM-DD`); until then the access endpoint refuses it. */
  embargo?: string;
  /** Requests carrying the emulator's token may read it, restricted or embargoed. */
  grantedToTokenHolder: boolean;
  /** URL path of the file on the object store. */
  storagePath: string;
  /** A tabular file's original upload, served for `format=original`. */
  original?: StoredFile;
}

/** One version of the dataset. */
export interface DatasetVersion {
  /** The version endpoint's answer. */
  json: Uint8Array<ArrayBuffer>;
  /** File id by `directoryLabel/filename` (just `filename` without a label). */
  idsByPath: Map<string, number>;
  /** The version object, files included: what file pages and the list of versions are cut from. */
  object: Record<string, unknown>;
}

/**
 * What real installations vary that the dataset's JSON shows: file
 * persistent ids and deaccessioned versions; see {@linkcode EmulatorOptions}.
 */
export type DatasetShape = Pick<EmulatorOptions, "filePids" | "deaccessioned">;

/** The whole emulated dataset. */
export interface Dataset {
  /** The persistent id. */
  pid: string;
  /** The collection alias. */
  alias: string;
  /** The collection contents answer. */
  collectionJson: Uint8Array<ArrayBuffer>;
  /** The dataset answer. */
  datasetJson: Uint8Array<ArrayBuffer>;
  /** The dataset's current version. */
  main: DatasetVersion;
  /** Extra versions by name. */
  named: Map<string, DatasetVersion>;
  /** Every file of every version by id. */
  filesById: Map<number, StoredFile>;
  /** Every file of every version by store URL path. */
  filesByStoragePath: Map<string, StoredFile>;
}

/**
 * Builds the dataset from its sources. File ids count up from 1001 in the
 * order of the main version's entries, then of each named version's.
 */
export function buildDataset(
  sources: DatasetSources,
  pid: string,
  alias: string,
  shape: DatasetShape = {},
): Dataset {
  const { deaccessioned = [] } = shape;
  const isDeaccessioned = (name = ":latest") =>
    deaccessioned === true || deaccessioned.includes(name);
  const facts: DatasetFacts = { pid, datasetId: 1, createdAt: new Date() };
  const filesById = new Map<number, StoredFile>();
  const filesByStoragePath = new Map<string, StoredFile>();
  const stampHex = facts.createdAt.getTime().toString(16);

  const buildVersion = (
    entries: EmulatorEntry[],
    versionId: number,
    name?: string,
  ) => {
    const idsByPath = new Map<string, number>();
    const files = entries.map((entry) => {
      const id = FIRST_FILE_ID + filesById.size;
      const spec = toFileSpec(entry.file);
      const bytes = bytesOf(spec.content);
      const original = spec.tabular
        ? spec.original === undefined ? bytes : bytesOf(spec.original)
        : undefined;
      const storageKey = `${stampHex}-${id.toString(16).padStart(12, "0")}`;
      const stored: StoredFile = {
        id,
        bytes,
        contentType: spec.contentType ?? "application/octet-stream",
        restricted: spec.restricted ?? false,
        grantedToTokenHolder: spec.grantedToTokenHolder ?? false,
        storagePath: `/${BUCKET}/${storageKey}`,
      };
      if (spec.embargo !== undefined) stored.embargo = spec.embargo;
      if (original !== undefined) {
        stored.original = {
          ...stored,
          bytes: original,
          contentType: "text/csv",
          storagePath: `${stored.storagePath}.orig`,
        };
        filesByStoragePath.set(stored.original.storagePath, stored.original);
      }
      filesById.set(id, stored);
      filesByStoragePath.set(stored.storagePath, stored);
      const path = entry.directoryLabel
        ? `${entry.directoryLabel}/${entry.filename}`
        : entry.filename;
      if (!idsByPath.has(path)) idsByPath.set(path, id);
      const listed = fileEntry(
        {
          id,
          filename: entry.filename,
          directoryLabel: entry.directoryLabel,
          contentType: stored.contentType,
          listedSize: spec.listedSize === undefined
            ? bytes.length
            : spec.listedSize,
          checksum: listedChecksum(spec, original ?? bytes),
          restricted: stored.restricted,
          embargo: spec.embargo,
          storageIdentifier: `s3://${BUCKET}:${storageKey}`,
          original: original && {
            fileName: csvName(entry.filename),
            size: original.length,
          },
        },
        versionId,
        facts.createdAt,
      );
      if (shape.filePids) {
        (listed.dataFile as Record<string, unknown>).persistentId = filePid(
          pid,
          id,
        );
      }
      return listed;
    });
    const version = versionObject(facts, {
      id: versionId,
      internalVersionNumber: versionId,
      name,
      deaccessioned: isDeaccessioned(name),
    }, files);
    return { version, idsByPath };
  };

  const main = buildVersion(sources.main, 1);
  const named = new Map<string, DatasetVersion>();
  let versionId = 1;
  for (const [name, entries] of Object.entries(sources.versions)) {
    const built = buildVersion(entries, ++versionId, name);
    named.set(name, {
      json: okJson(built.version),
      idsByPath: built.idsByPath,
      object: built.version,
    });
  }
  const item = collectionItem(facts);
  return {
    pid,
    alias,
    collectionJson: okJson([item]),
    datasetJson: okJson(
      deaccessioned === true ? item : { ...item, latestVersion: main.version },
    ),
    main: {
      json: okJson(main.version),
      idsByPath: main.idsByPath,
      object: main.version,
    },
    named,
    filesById,
    filesByStoragePath,
  };
}

/**
 * The version a name stands for: a named version when there is one by that
 * name, else the main version for `:latest`, `:draft`, `:latest-published`
 * or no name at all.
 */
export function findVersion(
  dataset: Dataset,
  name?: string,
): DatasetVersion | undefined {
  if (name === undefined) return dataset.main;
  return dataset.named.get(name) ??
    (MAIN_VERSION_NAMES.has(name) ? dataset.main : undefined);
}

function bytesOf(content: Uint8Array | string): Uint8Array<ArrayBuffer> {
  return typeof content === "string"
    ? encoder.encode(content)
    : new Uint8Array(content);
}

/** The checksum the listing gives for a file whose checksummed bytes are `bytes`. */
function listedChecksum(
  spec: EmulatorFileSpec,
  bytes: Uint8Array,
): { type: string; value: string } | null {
  const type = spec.checksumType ?? "MD5";
  const given = spec.checksum !== undefined
    ? spec.checksum
    : type === "MD5"
    ? spec.md5
    : undefined;
  if (given === null) return null;
  const value = given ??
    createHash(checksumKind(type)!).update(bytes).digest("hex");
  return { type, value };
}

function csvName(filename: string): string {
  return filename.endsWith(".tab")
    ? `${filename.slice(0, -4)}.csv`
    : `${filename}.csv`;
}

function okJson(data: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify({ status: "OK", data }));
}

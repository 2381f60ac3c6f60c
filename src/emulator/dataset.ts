/**
 * The emulated dataset, built once at start: every file's bytes, MD5, id and
 * storage key, indexes by id and by store path, and the JSON answers encoded
 * ahead of time so that requests cost a map lookup.
 *
 * @module
 */

import { createHash } from "node:crypto";
import {
  collectionItem,
  type DatasetFacts,
  fileEntry,
  versionObject,
} from "./metadata.ts";
import type { EmulatorEntry } from "./options.ts";
import { type DatasetSources, toFileSpec } from "./sources.ts";

const BUCKET = "repo-emulator";
const FIRST_FILE_ID = 1001;
const MAIN_VERSION_NAMES = new Set([":latest", ":draft", ":latest-published"]);
const encoder = new TextEncoder();

/**
 * One served file.
 *
 * @example
 * ```ts
 * import type { StoredFile } from "./dataset.ts";
 * const file: StoredFile = {
 *   id: 1001, bytes: new Uint8Array([104, 105]), contentType: "text/plain",
 *   restricted: false, storagePath: "/repo-emulator/18c0-0000000003e9",
 * };
 * ```
 */
export interface StoredFile {
  /** The file id. */
  id: number;
  /** The bytes served. */
  bytes: Uint8Array<ArrayBuffer>;
  /** Media type of content answers. */
  contentType: string;
  /** Whether the access endpoint refuses it. */
  restricted: boolean;
  /** URL path of the file on the object store. */
  storagePath: string;
}

/**
 * One version of the dataset.
 *
 * @example
 * ```ts
 * import { buildDataset, findVersion } from "./dataset.ts";
 * const dataset = buildDataset({ main: [{ filename: "a", file: "x" }], versions: {} }, "doi:1/2", "root");
 * findVersion(dataset, ":latest")?.idsByPath.get("a"); // 1001
 * ```
 */
export interface DatasetVersion {
  /** The version endpoint's answer. */
  json: Uint8Array<ArrayBuffer>;
  /** File id by `directoryLabel/filename` (just `filename` without a label). */
  idsByPath: Map<string, number>;
}

/**
 * The whole emulated dataset.
 *
 * @example
 * ```ts
 * import { buildDataset } from "./dataset.ts";
 * const dataset = buildDataset({ main: [], versions: {} }, "doi:10.5072/FK2/X", "root");
 * dataset.filesById.size; // 0
 * ```
 */
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
 *
 * @example
 * ```ts
 * import { buildDataset } from "./dataset.ts";
 * const dataset = buildDataset(
 *   { main: [{ directoryLabel: "d", filename: "a", file: "x" }], versions: {} },
 *   "doi:10.5072/FK2/X",
 *   "root",
 * );
 * dataset.filesById.get(1001)?.contentType; // "application/octet-stream"
 * ```
 */
export function buildDataset(
  sources: DatasetSources,
  pid: string,
  alias: string,
): Dataset {
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
      const bytes = typeof spec.content === "string"
        ? encoder.encode(spec.content)
        : new Uint8Array(spec.content);
      const storageKey = `${stampHex}-${id.toString(16).padStart(12, "0")}`;
      const stored: StoredFile = {
        id,
        bytes,
        contentType: spec.contentType ?? "application/octet-stream",
        restricted: spec.restricted ?? false,
        storagePath: `/${BUCKET}/${storageKey}`,
      };
      filesById.set(id, stored);
      filesByStoragePath.set(stored.storagePath, stored);
      const path = entry.directoryLabel
        ? `${entry.directoryLabel}/${entry.filename}`
        : entry.filename;
      if (!idsByPath.has(path)) idsByPath.set(path, id);
      return fileEntry(
        {
          id,
          filename: entry.filename,
          directoryLabel: entry.directoryLabel,
          contentType: stored.contentType,
          listedSize: spec.listedSize === undefined
            ? bytes.length
            : spec.listedSize,
          md5: spec.md5 === undefined
            ? createHash("md5").update(bytes).digest("hex")
            : spec.md5,
          restricted: stored.restricted,
          storageIdentifier: `s3://${BUCKET}:${storageKey}`,
          original: spec.tabular
            ? { fileName: csvName(entry.filename), size: bytes.length }
            : undefined,
        },
        versionId,
        facts.createdAt,
      );
    });
    const version = versionObject(facts, {
      id: versionId,
      internalVersionNumber: versionId,
      name,
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
    });
  }
  const item = collectionItem(facts);
  return {
    pid,
    alias,
    collectionJson: okJson([item]),
    datasetJson: okJson({ ...item, latestVersion: main.version }),
    main: { json: okJson(main.version), idsByPath: main.idsByPath },
    named,
    filesById,
    filesByStoragePath,
  };
}

/**
 * The version a name stands for: a named version when there is one by that
 * name, else the main version for `:latest`, `:draft`, `:latest-published`
 * or no name at all.
 *
 * @example
 * ```ts
 * import { buildDataset, findVersion } from "./dataset.ts";
 * const dataset = buildDataset({ main: [], versions: {} }, "doi:1/2", "root");
 * findVersion(dataset, "1.0"); // undefined
 * findVersion(dataset) === dataset.main; // true
 * ```
 */
export function findVersion(
  dataset: Dataset,
  name?: string,
): DatasetVersion | undefined {
  if (name === undefined) return dataset.main;
  return dataset.named.get(name) ??
    (MAIN_VERSION_NAMES.has(name) ? dataset.main : undefined);
}

function csvName(filename: string): string {
  return filename.endsWith(".tab")
    ? `${filename.slice(0, -4)}.csv`
    : `${filename}.csv`;
}

function okJson(data: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify({ status: "OK", data }));
}

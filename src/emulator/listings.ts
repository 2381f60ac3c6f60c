/**
 * The repository's answers about a dataset and its files: the dataset and
 * version endpoints, the paged file list, the list of versions, and the
 * file lookups by persistent id and by id. Persistent ids are matched with the scheme in
 * any case (`DOI:` is `doi:`) and the rest as given.
 *
 * @module
 */

import type { EmulatorContext } from "./context.ts";
import { type Dataset, findVersion } from "./dataset.ts";
import { fileAnswer, versionSummary } from "./metadata.ts";
import { envelopeError, jsonReply } from "./replies.ts";

/** A JSON object. */
type Json = Record<string, unknown>;

const encoder = new TextEncoder();
/** Files by persistent id (scheme lower-cased) and by id, with the version listing each. */
interface FileIndex {
  byPid: Map<string, [Json, Json]>;
  byId: Map<string, [Json, Json]>;
}
const fileIndexes = new WeakMap<Dataset, FileIndex>();

/** The dataset endpoint (`versionName` undefined) or a version endpoint. */
export function listingAnswer(
  context: EmulatorContext,
  url: URL,
  versionName: string | undefined,
): Response {
  const { dataset } = context;
  const pid = url.searchParams.get("persistentId") ?? "";
  if (!samePid(pid, dataset.pid)) return datasetNotFound(pid);
  if (versionName === undefined) {
    return jsonReply(dataset.datasetJson);
  }
  const version = findVersion(dataset, versionName);
  if (!version) return versionNotFound(versionName, pid);
  return jsonReply(version.json);
}

/**
 * `/versions/{v}/files`: `limit` files (at most `maxPageSize`) from
 * `offset` on, with `totalCount`; 404 when `pagedFiles` is off (an older
 * installation) and for a deaccessioned version.
 */
export function filePageAnswer(
  context: EmulatorContext,
  url: URL,
  versionName: string,
): Response {
  if (!context.pagedFiles) return noSuchEndpoint();
  const { dataset } = context;
  const pid = url.searchParams.get("persistentId") ?? "";
  if (!samePid(pid, dataset.pid)) return datasetNotFound(pid);
  const version = findVersion(dataset, versionName);
  if (!version || version.object.versionState === "DEACCESSIONED") {
    return versionNotFound(versionName, pid);
  }
  const files = version.object.files as Json[];
  const limit = countParameter(url, "limit", files.length);
  const offset = countParameter(url, "offset", 0);
  if (limit === undefined || offset === undefined) {
    return envelopeError(400, "limit and offset must be whole numbers >= 0.");
  }
  const page = files.slice(
    offset,
    offset + Math.min(limit, context.maxPageSize),
  );
  return jsonReply(okJson({ data: page, totalCount: files.length }));
}

/** `/versions`: every version, newest first, without files. */
export function versionListAnswer(
  context: EmulatorContext,
  url: URL,
): Response {
  const { dataset } = context;
  const pid = url.searchParams.get("persistentId") ?? "";
  if (!samePid(pid, dataset.pid)) return datasetNotFound(pid);
  const versions = [dataset.main, ...dataset.named.values()]
    .map((version) => versionSummary(version.object))
    .sort((a, b) => (b.id as number) - (a.id as number));
  return jsonReply(okJson({ data: versions }));
}

/**
 * `/api/files/:persistentId/`: the file entry of the file with that
 * persistent id and the version listing it; 404 for any other id.
 */
export function filePidAnswer(context: EmulatorContext, url: URL): Response {
  const pid = url.searchParams.get("persistentId") ?? "";
  const found = fileIndex(context.dataset).byPid.get(pidKey(pid));
  if (found === undefined) {
    return envelopeError(404, `Datafile with Persistent ID ${pid} not found.`);
  }
  return jsonReply(okJson({ data: fileAnswer(...found) }));
}

/**
 * `/api/files/{id}`: the file entry of the file with that id and the
 * version listing it (as `returnDatasetVersion=true` asks); 404 for any
 * other id.
 */
export function fileIdAnswer(context: EmulatorContext, id: string): Response {
  const found = fileIndex(context.dataset).byId.get(id);
  if (found === undefined) {
    return envelopeError(404, `File with ID ${id} not found.`);
  }
  return jsonReply(okJson({ data: fileAnswer(...found) }));
}

/** The file entries of every version, by persistent id and by id; built once. */
function fileIndex(dataset: Dataset): FileIndex {
  let index = fileIndexes.get(dataset);
  if (index !== undefined) return index;
  index = { byPid: new Map(), byId: new Map() };
  for (const version of [dataset.main, ...dataset.named.values()]) {
    for (const entry of version.object.files as Json[]) {
      const { persistentId, id } = entry.dataFile as Json;
      if (typeof persistentId === "string" && persistentId !== "") {
        index.byPid.set(pidKey(persistentId), [entry, version.object]);
      }
      index.byId.set(String(id), [entry, version.object]);
    }
  }
  fileIndexes.set(dataset, index);
  return index;
}

/** The 404 of a path no route takes. */
export function noSuchEndpoint(): Response {
  return envelopeError(404, "API endpoint does not exist on this server.");
}

/** Whether two persistent ids are the same: the scheme in any case, the rest exactly. */
function samePid(asked: string, pid: string): boolean {
  return pidKey(asked) === pidKey(pid);
}

function pidKey(pid: string): string {
  return pid.replace(/^[^:/]*:/, (scheme) => scheme.toLowerCase());
}

function datasetNotFound(pid: string): Response {
  return envelopeError(404, `Dataset with Persistent ID ${pid} not found.`);
}

function versionNotFound(name: string, pid: string): Response {
  return envelopeError(
    404,
    `Dataset version ${name} of dataset ${pid} not found`,
  );
}

/** A whole-number query parameter; `fallback` when absent, `undefined` when malformed. */
function countParameter(
  url: URL,
  name: string,
  fallback: number,
): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null) return fallback;
  return /^\d+$/.test(value) ? Number(value) : undefined;
}

function okJson(fields: Json): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify({ status: "OK", ...fields }));
}

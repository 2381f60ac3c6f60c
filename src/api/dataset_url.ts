/**
 * Dataset URLs as users paste them: the dataset page
 * (`…/dataset.xhtml?persistentId=…[&version=…]`), the API URL
 * (`…/api/datasets/:persistentId/?persistentId=…`), a file page
 * (`…/file.xhtml?persistentId=…` or `?fileId=…`) or a file's API URL,
 * turned into the repository's host, the dataset's persistent id and
 * version, and for a file page the file's path. The host keeps the URL's
 * scheme, port and any path before the page.
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";
import { type ConnectOptions, RepoApi } from "./repo_api.ts";

const FORMS = "a dataset page (…/dataset.xhtml?persistentId=…), " +
  "the API URL (…/api/datasets/:persistentId/?persistentId=…) " +
  "or a file page (…/file.xhtml?persistentId=… or ?fileId=…)";

/** What a dataset URL names before any request. */
export interface DatasetUrl {
  /** The repository: the URL's origin and the path before the page. */
  host: string;
  /** The dataset's persistent id, when the URL gives it. */
  pid?: string;
  /** The version the URL names (`DRAFT` is `:draft`). */
  version?: string;
  /** A file's persistent id (file pages by persistent id). */
  filePid?: string;
  /** A file's id (file pages by `fileId`). */
  fileId?: string;
}

/** A dataset URL resolved: a file page's dataset asked of the repository. */
export interface ResolvedDatasetUrl {
  /** The repository, for the `host` option. */
  host: string;
  /** The dataset's persistent id. */
  pid: string;
  /** The version the URL names. */
  version?: string;
  /** The path of the file a file page names. */
  file?: string;
}

/**
 * Reads a dataset URL without asking the repository; a `TypeError` names
 * the URL and the accepted forms.
 */
export function parseDatasetUrl(text: string): DatasetUrl {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  const page = url && /^https?:$/.test(url.protocol)
    ? /^(.*?)\/(?:(dataset|file)\.xhtml|api\/(?:v1\/)?(datasets|files)\/(:persistentId|\d+))(?:\/versions\/([^/]+))?(?:\/.*)?$/
      .exec(url.pathname)
    : null;
  if (url === undefined || page === null) {
    throw new TypeError(
      `not a dataset URL: ${JSON.stringify(text)}; give ${FORMS}`,
    );
  }
  const [, prefix, xhtml, api, apiId, apiVersion] = page;
  const query = url.searchParams;
  const persistentId = query.get("persistentId") ?? undefined;
  const versionText = apiVersion === undefined
    ? query.get("version") ?? undefined
    : decodeURIComponent(apiVersion);
  const result: DatasetUrl = {
    host: `${url.origin}${prefix}`,
    ...(versionText === undefined ? {} : { version: versionOf(versionText) }),
  };
  const kind = xhtml ?? api;
  if (kind === "dataset" || kind === "datasets") {
    if (apiId !== undefined && apiId !== ":persistentId") {
      throw new TypeError(
        `a dataset's numeric id cannot be read; give its persistentId URL, got ${
          JSON.stringify(text)
        }`,
      );
    }
    if (persistentId === undefined) {
      throw new TypeError(
        `the dataset URL has no persistentId: ${JSON.stringify(text)}`,
      );
    }
    return { ...result, pid: persistentId };
  }
  const fileId = apiId !== undefined && apiId !== ":persistentId"
    ? apiId
    : query.get("fileId") ?? undefined;
  if (fileId !== undefined && /^\d+$/.test(fileId)) {
    return { ...result, fileId };
  }
  if (persistentId === undefined) {
    throw new TypeError(
      `the file URL has neither persistentId nor a numeric fileId: ${
        JSON.stringify(text)
      }`,
    );
  }
  return { ...result, filePid: persistentId };
}

/**
 * Resolves a dataset URL: a dataset URL as it is, a file URL by asking the
 * repository (`/api/files/:persistentId/` or `/api/files/{id}`) which
 * dataset holds the file and where.
 */
export async function resolveDatasetUrl(
  text: string,
  connect: Omit<ConnectOptions, "host">,
  signal?: AbortSignal,
): Promise<ResolvedDatasetUrl> {
  const { host, pid, version, filePid, fileId } = parseDatasetUrl(text);
  const at = version === undefined ? {} : { version };
  if (pid !== undefined) return { host, pid, ...at };
  const api = RepoApi.connect({ ...connect, host });
  const data = filePid !== undefined
    ? await api.fileByPid(filePid, signal)
    : await api.getData(`/files/${fileId}?returnDatasetVersion=true`, signal);
  const entry = (data ?? {}) as Record<string, unknown>;
  const datasetVersion = (entry.datasetVersion ?? {}) as Record<
    string,
    unknown
  >;
  const datasetPid = datasetVersion.datasetPersistentId;
  const label = entry.label;
  if (typeof datasetPid !== "string" || typeof label !== "string") {
    throw new RepoProtocolError(
      "the file's answer names no datasetVersion.datasetPersistentId and label",
      `${api.base}/files/${fileId ?? ":persistentId"}`,
    );
  }
  const dir = typeof entry.directoryLabel === "string"
    ? entry.directoryLabel
    : "";
  return {
    host,
    pid: datasetPid,
    ...at,
    file: dir === "" ? label : `${dir}/${label}`,
  };
}

/** A page's `version` as the API names it: `DRAFT` is `:draft`. */
function versionOf(text: string): string {
  return text.toUpperCase() === "DRAFT" ? ":draft" : text;
}

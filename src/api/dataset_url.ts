/**
 * Dataset URLs as users paste them: the dataset page
 * (`…/dataset.xhtml?persistentId=…[&version=…]`, `;jsessionid=…` and other
 * query parameters ignored), the citation page (`…/citation?persistentId=…`),
 * the API URL (`…/api/datasets/:persistentId/?persistentId=…`), a file page
 * (`…/file.xhtml?persistentId=…` or `?fileId=…`) or a file's API URL, and a
 * DOI or Handle (a link or `doi:…`), which its resolver redirects to one of
 * those; turned into the repository's host, the dataset's persistent id and
 * version, and for a file page the file's path. The host keeps the URL's
 * scheme, port and any path before the page.
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";
import { type ConnectOptions, RepoApi } from "./repo_api.ts";
import { plainFetch } from "./request.ts";
import { pidLink, resolvePidLink, resolverFor } from "./pid_resolver.ts";

const FORMS = "a dataset page (…/dataset.xhtml?persistentId=…), " +
  "a citation page (…/citation?persistentId=…), " +
  "the API URL (…/api/datasets/:persistentId/?persistentId=…), " +
  "a file page (…/file.xhtml?persistentId=… or ?fileId=…), " +
  "or a DOI or Handle (https://doi.org/10.…, doi:10.…, hdl:…)";

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
 * the URL and the accepted forms. A DOI or Handle is not read here: see
 * {@linkcode resolveDatasetUrl}.
 */
export function parseDatasetUrl(text: string): DatasetUrl {
  let url: URL | undefined;
  try {
    url = new URL(text.trim());
  } catch {
    url = undefined;
  }
  // Servlet path parameters (`;jsessionid=…`) name a session, not a page.
  const page = url && /^https?:$/.test(url.protocol)
    ? /^(.*?)\/(?:(dataset|file)\.xhtml|(citation)|api\/(?:v1\/)?(datasets|files)\/(:persistentId|\d+))(?:\/versions\/([^/]+))?(?:\/.*)?$/
      .exec(url.pathname.replace(/;[^/]*/g, ""))
    : null;
  if (url === undefined || page === null) {
    const alias = url && /\/dataverse\/([^/;]+)\/?$/.exec(url.pathname)?.[1];
    const collection = alias
      ? ` (a collection's page: its datasets are listed by listCollection, or the command datasets ${alias})`
      : "";
    throw new TypeError(
      `not a dataset URL: ${JSON.stringify(text)}${collection}; give ${FORMS}`,
    );
  }
  const [, prefix, xhtml, citation, api, apiId, apiVersion] = page;
  const query = url.searchParams;
  const persistentId = query.get("persistentId") || undefined;
  // The dataset page writes `version=` (empty) for the latest version.
  const versionText = apiVersion === undefined
    ? query.get("version") || undefined
    : decodeURIComponent(apiVersion);
  const result: DatasetUrl = {
    host: `${url.origin}${prefix}`,
    ...(versionText === undefined ? {} : { version: versionOf(versionText) }),
  };
  const kind = xhtml ?? citation ?? api;
  if (kind === "dataset" || kind === "datasets" || kind === "citation") {
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

/** How to reach the repository, and the resolver of DOIs and Handles. */
export type ResolveOptions = Omit<ConnectOptions, "host"> & {
  /** The resolver's origin; `https://doi.org` or `https://hdl.handle.net` when absent. */
  resolver?: string;
};

/**
 * Resolves a dataset URL: a DOI or Handle by one request to its resolver
 * (no token, no redirect followed) whose `Location` is read as a dataset
 * URL; a dataset URL as it is; a file URL by asking the repository
 * (`/api/files/:persistentId/` or `/api/files/{id}`) which dataset holds
 * the file and where.
 */
export async function resolveDatasetUrl(
  text: string,
  connect: ResolveOptions,
  signal?: AbortSignal,
): Promise<ResolvedDatasetUrl> {
  const link = pidLink(text);
  if (link !== undefined) {
    const resolver = resolverFor(link, connect.resolver);
    const page = await resolvePidLink(link, resolver, {
      fetch: plainFetch(connect.fetch),
      timeoutMs: connect.timeoutMs,
    }, signal);
    let parsed: DatasetUrl;
    try {
      parsed = parseDatasetUrl(page);
    } catch (error) {
      throw new TypeError(
        `${link.pid} resolves (through ${resolver}) to ${page}, which is not a dataset page; give the dataset's page URL, or its repository's host with pid ${link.pid}`,
        { cause: error },
      );
    }
    return await resolveParsed(parsed, connect, signal);
  }
  return await resolveParsed(parseDatasetUrl(text), connect, signal);
}

async function resolveParsed(
  parsed: DatasetUrl,
  connect: ResolveOptions,
  signal?: AbortSignal,
): Promise<ResolvedDatasetUrl> {
  const { host, pid, version, filePid, fileId } = parsed;
  const at = version === undefined ? {} : { version };
  if (pid !== undefined) return { host, pid, ...at };
  const { resolver: _, ...options } = connect;
  const api = RepoApi.connect({ ...options, host });
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

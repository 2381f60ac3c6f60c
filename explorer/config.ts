/**
 * Which dataset the explorer opens: from the query string as Dataverse's
 * external tools pass it (`siteUrl`, `datasetPid`, `datasetVersion`, `key`,
 * or `fileid` for one file's preview), or from `explore.json` as
 * `repo-fs explore` serves it.
 *
 * @module
 */

import { RepoFs, type RepoFsOptions } from "../mod.ts";

/** The dataset to open, and the file to show first. */
export interface Opened {
  fs: RepoFs;
  /** The repository's base, for download links (`{host}/api/access/datafile/{id}`). */
  host: string;
  /** A file id to preview alone (`fileid`). */
  fileId?: number;
  /** The dataset's persistent id, as shown in the header. */
  pid: string;
}

/** What `repo-fs explore` serves as `explore.json`. */
export interface ExploreConfig {
  host: string;
  pid: string;
  version?: string;
  token?: string;
  tokenHeader?: string;
}

/** Dataverse installations read the token from this header. */
const DATAVERSE_TOKEN_HEADER = "X-Dataverse-key";
/** …or this query parameter, which lets a browser follow the access API's redirect to the store without the token. */
const DATAVERSE_TOKEN_QUERY = "key";

/**
 * The dataset of `location`'s query, or of `explore.json` when the query
 * names none. `fetch` is the metered transport every read goes through.
 */
export async function openDataset(
  location: URL,
  fetch: typeof globalThis.fetch,
): Promise<Opened> {
  const query = location.searchParams;
  const siteUrl = query.get("siteUrl")?.replace(/\/+$/, "");
  if (!siteUrl) return fromExploreConfig(location, fetch);
  const options: Omit<RepoFsOptions, "host" | "pid"> = {
    fetch,
    tokenHeader: query.get("tokenHeader") ?? DATAVERSE_TOKEN_HEADER,
    tokenQuery: DATAVERSE_TOKEN_QUERY,
    ...(query.get("key") ? { token: query.get("key")! } : {}),
  };
  const version = query.get("datasetVersion") ?? query.get("datasetversion");
  if (version) options.version = version;
  const fileId = query.get("fileid") ?? query.get("fileId");
  const datasetPid = query.get("datasetPid");
  if (datasetPid) {
    const fs = new RepoFs({ ...options, host: siteUrl, pid: datasetPid });
    return {
      fs,
      host: siteUrl,
      pid: datasetPid,
      ...(fileId ? { fileId: Number(fileId) } : {}),
    };
  }
  if (!fileId) {
    throw new TypeError("the address names neither datasetPid nor fileid");
  }
  const fs = await RepoFs.fromUrl(
    `${siteUrl}/file.xhtml?fileId=${encodeURIComponent(fileId)}`,
    options,
  );
  return {
    fs,
    host: siteUrl,
    pid: fs.serialize().options.pid,
    fileId: Number(fileId),
  };
}

async function fromExploreConfig(
  location: URL,
  fetch: typeof globalThis.fetch,
): Promise<Opened> {
  const answer = await globalThis.fetch(
    new URL(`explore.json${location.search}`, location),
  );
  if (!answer.ok) {
    throw new TypeError(
      "no dataset named: open this page with ?siteUrl=…&datasetPid=… (or &fileid=…), or through `repo-fs explore`",
    );
  }
  const config: ExploreConfig = await answer.json();
  const fs = new RepoFs({
    tokenQuery: DATAVERSE_TOKEN_QUERY,
    ...config,
    fetch,
  });
  return { fs, host: config.host, pid: config.pid };
}

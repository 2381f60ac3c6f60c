/**
 * The stable access URL of a file of a `RepoFs`, as kerchunk references
 * name it: `{base}/access/datafile/{id}` (it redirects to the object store;
 * an expiring store URL would not last as long as the references).
 *
 * @module
 */

import { repositoryBase } from "../api/repo_api.ts";
import type { ByteSource } from "./source.ts";

/** The access URL of `path` in a `RepoFs` (which has `host`). */
export async function accessUrl(
  source: ByteSource,
  path: string,
): Promise<string> {
  const host = (source as { host?: unknown }).host;
  if (typeof host !== "string") {
    throw new TypeError(
      `The access URL of "${path}" needs a RepoFs source (one with a host): pass { url } or { paths: true }`,
    );
  }
  const { id } = await source.info(path);
  return `${repositoryBase(host)}/access/datafile/${id}`;
}

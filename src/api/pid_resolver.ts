/**
 * DOI and Handle links (`https://doi.org/10.…`, `https://hdl.handle.net/…`,
 * `doi:…`, `hdl:…`) turned into the page their resolver redirects to: one
 * request, redirects not followed, no token, its `Location` read.
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";
import { normalizePid } from "./pid.ts";
import { exchange, type Transport } from "./request.ts";
import { isHiddenRedirect } from "./hidden_redirects.ts";

/** The resolver of each scheme when none is given. */
const DEFAULT_RESOLVERS: Record<string, string> = {
  doi: "https://doi.org",
  hdl: "https://hdl.handle.net",
};

/** A persistent id that a resolver can turn into its landing page. */
export interface PidLink {
  /** The id in its normal form (`doi:10.…/…`, `hdl:…/…`). */
  pid: string;
  /** `doi` or `hdl`. */
  scheme: string;
  /** The id without its scheme: what follows the resolver's origin. */
  identifier: string;
}

/**
 * The DOI or Handle `text` names (`https://doi.org/10.…`, `doi:…`, a bare
 * `10.…/…`, `https://hdl.handle.net/…`, `hdl:…`), or `undefined` for
 * anything else (a `perma:` id included: it has no resolver).
 */
export function pidLink(text: string): PidLink | undefined {
  let pid: string;
  try {
    pid = normalizePid(text);
  } catch {
    return undefined;
  }
  const colon = pid.indexOf(":");
  const scheme = pid.slice(0, colon);
  if (!(scheme in DEFAULT_RESOLVERS)) return undefined;
  return { pid, scheme, identifier: pid.slice(colon + 1) };
}

/**
 * The resolver's origin for `link`: `resolver` when given (an http or https
 * URL, trailing `/` dropped), else `https://doi.org` or
 * `https://hdl.handle.net`.
 * @throws {TypeError} when `resolver` is not an http(s) URL
 */
export function resolverFor(link: PidLink, resolver?: string): string {
  if (resolver === undefined) return DEFAULT_RESOLVERS[link.scheme];
  if (typeof resolver !== "string" || !/^https?:\/\/[^/]/i.test(resolver)) {
    throw new TypeError(
      `resolver must be an http or https URL such as https://doi.org, got ${
        JSON.stringify(resolver)
      }`,
    );
  }
  return resolver.replace(/\/+$/, "");
}

/**
 * Where the resolver sends `link`: the absolute URL of its `Location`. The
 * request carries no token and follows no redirect.
 * @throws {RepoProtocolError} when the answer is not a redirect
 */
export async function resolvePidLink(
  link: PidLink,
  resolver: string,
  transport: Transport,
  signal?: AbortSignal,
): Promise<string> {
  const url = `${resolver}/${
    link.identifier.split("/").map(encodeURIComponent).join("/")
  }`;
  const tryInstead =
    "give the dataset's page URL (…/dataset.xhtml?persistentId=…) instead, or its repository's host with this pid";
  return await exchange(transport, url, { method: "GET" }, signal, (answer) => {
    if (isHiddenRedirect(answer)) {
      throw new RepoProtocolError(
        `this runtime's fetch hides the redirect that resolves ${link.pid}; ${tryInstead}`,
        url,
      );
    }
    const location = answer.headers.get("location");
    if (answer.status < 300 || answer.status > 399 || location === null) {
      const what = answer.status === 404
        ? "does not know"
        : `answered ${answer.status}, not a redirect, for`;
      throw new RepoProtocolError(
        `the resolver ${resolver} ${what} ${link.pid}; check the id, or ${tryInstead}`,
        url,
      );
    }
    return Promise.resolve(new URL(location, url).href);
  });
}

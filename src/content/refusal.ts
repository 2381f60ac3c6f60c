/**
 * Why a file is refused: a repository's 403 for a file the listing marks
 * restricted or embargoed, told with what the reader knows and the
 * repository does not say; an object store's refusal of a content URL,
 * told apart from a refusal of the API token.
 *
 * @module
 */

import type { ContentFile } from "./content_file.ts";
import { RepoHttpError } from "../base/errors.ts";

/**
 * `error`, or, when it is the repository's 403 for a file the listing marks
 * restricted or embargoed, a {@linkcode RepoHttpError} (status 403, `error`
 * as its cause) whose message adds that the file is restricted (or until
 * when it is embargoed) and whether an API token was sent.
 */
export function explainRefusal(
  error: unknown,
  file: ContentFile,
  repository: string,
  tokenSent: boolean,
): unknown {
  if (
    !(error instanceof RepoHttpError) || error.status !== 403 ||
    !file.restricted || !error.url.startsWith(repository)
  ) {
    return error;
  }
  const what = file.embargoedUntil === undefined
    ? "the file is restricted"
    : `the file is embargoed until ${file.embargoedUntil}`;
  const token = tokenSent
    ? "the API token sent has no access"
    : "no API token was sent";
  const why = `(${what}; ${token})`;
  return new RepoHttpError(
    403,
    error.url,
    error.detail === undefined ? why : `${error.detail} ${why}`,
    { cause: error },
  );
}

/**
 * The error to raise when the object store refused a content URL, and a
 * freshly resolved one too: `error` (the store's answer, with its own code
 * and message) saying that the content URL was refused, not the API token.
 */
export function storeRefusal(error: RepoHttpError): RepoHttpError {
  const said = error.detail === undefined ? "" : ` (${error.detail})`;
  return new RepoHttpError(
    error.status,
    error.url,
    `the object store refused the content URL${said}, and a freshly resolved one too: it is the content URL the repository handed out that was refused, not the API token`,
    { cause: error, retryAfter: error.retryAfter },
  );
}

/**
 * Why the repository refuses a file: a 403 for a file the listing marks
 * restricted or embargoed, told with what the reader knows and the
 * repository does not say.
 *
 * @module
 */

import type { ContentFile } from "./content_answer.ts";
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

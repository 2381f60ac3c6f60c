/**
 * The one line a failed command ends with (and each failed file's line of
 * `get`): the error's message, with what the user can do about it: `did
 * you mean http://…?` for a connection to a
 * scheme-less local host, and for the repository's 401 or 403 whether a
 * token was sent and in which header (Dataverse reads `X-Dataverse-key`)
 * and, if none was, how to give one.
 *
 * @module
 */

import { RepoConnectionError, RepoHttpError } from "../base/errors.ts";
import { DEFAULT_NAMES, repositoryBase } from "../api/repo_api.ts";
import type { Context } from "./context.ts";
import { schemeHint } from "./target.ts";

/** The header Dataverse installations read the API token from. */
const DATAVERSE_HEADER = "X-Dataverse-key";

/** The line for `error`, which ended the command of `context`. */
export async function failureLine(
  error: unknown,
  context: Context,
): Promise<string> {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof Deno.errors.NotFound && error.message === "") {
    return "no such file or directory";
  }
  const host = hostOf(context);
  if (error instanceof RepoConnectionError && host !== undefined) {
    const hint = schemeHint(host);
    if (hint !== undefined) return `${error.message}; ${hint}`;
  }
  if (
    error instanceof RepoHttpError && (error.status === 401 ||
      error.status === 403) &&
    host !== undefined &&
    error.url.startsWith(repositoryBase(host))
  ) {
    const sent = await context.token().catch(() => undefined) !== undefined;
    const give = "give one with REPO_FS_TOKEN or --token-file F";
    if (!sent) {
      return error.message.includes("API token")
        ? `${error.message}: ${give}`
        : `${error.message} (no API token was sent; ${give})`;
    }
    const header = sentIn(context);
    if (error.message.includes("API token")) {
      return `${error.message} (sent in ${header}${dataverseHint(header)})`;
    }
    return `${error.message} (an API token was sent in ${header}${
      dataverseHint(header)
    }; check that it is current and has access)`;
  }
  return error.message;
}

/** The header the token went in: `--token-header`, `REPO_FS_TOKEN_HEADER` or the default. */
function sentIn(context: Context): string {
  try {
    return context.names().tokenHeader;
  } catch {
    return DEFAULT_NAMES.tokenHeader;
  }
}

/**
 * `; Dataverse installations read X-Dataverse-key: …` when the token went
 * in another header, which Dataverse ignores.
 */
function dataverseHint(header: string): string {
  return header.toLowerCase() === DATAVERSE_HEADER.toLowerCase()
    ? ""
    : `; Dataverse installations read it from ${DATAVERSE_HEADER}: add --token-header ${DATAVERSE_HEADER} (or REPO_FS_TOKEN_HEADER=${DATAVERSE_HEADER})`;
}

/** The command's repository host, if it names a valid one. */
function hostOf(context: Context): string | undefined {
  try {
    const host = context.host();
    repositoryBase(host);
    return host;
  } catch {
    return undefined;
  }
}

/**
 * The one line a failed command ends with: the error's message, with what
 * the user can do about it: `did you mean http://…?` for a connection to a
 * scheme-less local host, and for the repository's 401 or 403 whether a
 * token was sent and, if none was, how to give one.
 *
 * @module
 */

import { RepoConnectionError, RepoHttpError } from "../base/errors.ts";
import { repositoryBase } from "../api/repo_api.ts";
import type { Context } from "./context.ts";
import { schemeHint } from "./target.ts";

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
    const give = "give one with REPO_API_TOKEN or --token-file F";
    if (error.message.includes("API token")) {
      return sent ? error.message : `${error.message}: ${give}`;
    }
    return `${error.message} (${
      sent
        ? "an API token was sent; check that it is current and has access"
        : `no API token was sent; ${give}`
    })`;
  }
  return error.message;
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

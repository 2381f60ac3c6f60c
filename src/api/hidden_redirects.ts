/**
 * Content URLs where `fetch` hides redirects. A browser answers a request
 * sent with `redirect: "manual"` with an opaque response (type
 * `opaqueredirect`, status 0, no `Location`), so the HEAD that resolves a
 * content URL everywhere else cannot see where the repository points.
 * There, without a token, the redirect is followed by a one-byte ranged GET
 * that carries no token, and `response.url` is the content URL. With a
 * token nothing may follow a redirect (`fetch` keeps custom headers on a
 * cross-origin redirect, so the token would go to the store): content must
 * then come from a repository that serves the bytes itself.
 *
 * @module
 */

import { RepoProtocolError } from "../base/errors.ts";

/**
 * Whether `scope` is a browser's (a page or one of its workers), whose
 * `fetch` hides redirects. Deno, Node and Bun show them (and are told apart
 * by their own globals, which a page does not have). A runtime this misses
 * is caught by its first opaque answer (see {@linkcode isHiddenRedirect}).
 *
 * @param scope the global object to look at
 */
export function fetchHidesRedirects(scope: object = globalThis): boolean {
  if ("Deno" in scope || "process" in scope || "Bun" in scope) return false;
  return "document" in scope || "WorkerGlobalScope" in scope;
}

/**
 * Whether `response` is a redirect that `fetch` did not show: what a browser
 * answers to `redirect: "manual"`.
 */
export function isHiddenRedirect(response: Response): boolean {
  return response.type === "opaqueredirect";
}

/**
 * The error for a file whose content the repository redirects to another
 * server while `fetch` hides redirects and a token is set.
 *
 * @param url the file-access URL that redirected
 */
export function hiddenRedirectError(url: string): RepoProtocolError {
  return new RepoProtocolError(
    "the repository redirects this file's content to another server, and " +
      "this runtime's fetch (a browser's) hides redirects; following it " +
      "would send the API token to that server, so with a token a browser " +
      "reads only from a repository that serves the bytes itself: leave the " +
      "token out for public files, or read from Deno, Node or Bun",
    url,
  );
}

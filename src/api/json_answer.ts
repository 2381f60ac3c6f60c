/**
 * The repository's JSON answers (listings, file-list pages, collections) as
 * a careful client reads them: a redirect is followed only where the API
 * token may go, and a body's content coding is named when it cannot be
 * undone, rather than the answer being called "not JSON".
 *
 * @module
 */

import { clip, RepoProtocolError } from "../base/errors.ts";
import { bodyText, type Deadline } from "./request.ts";
import { isHiddenRedirect } from "./hidden_redirects.ts";

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Redirects followed for one request before it is given up. */
export const MOST_REDIRECTS = 5;
/** Codings some runtime's `fetch` undoes; any other cannot be read. */
const KNOWN_CODINGS = new Set(["gzip", "x-gzip", "deflate", "br", "zstd"]);
/** The most of a `deflate` answer read to be undone here. */
const MOST_CODED_BYTES = 100 * 1024 * 1024;

/**
 * Where a redirect answer to `url` leads, or `undefined` when `response` is
 * not a redirect. A redirect within the origin of `url` is followed; one to
 * another origin only without a token (the token would go along) and never
 * from https to http. Anything else is a {@linkcode RepoProtocolError}
 * naming where the redirect points (where `fetch` hides redirects, that it
 * could not be seen: such a runtime follows them itself only without a token).
 */
export function redirectTarget(
  response: Response,
  url: string,
  withToken: boolean,
): string | undefined {
  if (isHiddenRedirect(response)) {
    throw new RepoProtocolError(
      "the repository redirected, and this runtime's fetch (a browser's) hides where to; with an API token that redirect is not followed",
      url,
    );
  }
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("location");
  if (location === null) {
    throw new RepoProtocolError(
      `the repository answered ${response.status} without a Location`,
      url,
    );
  }
  let target: URL;
  try {
    target = new URL(location, url);
  } catch {
    throw new RepoProtocolError(
      `the repository redirected to ${
        clip(JSON.stringify(location))
      }, not a URL`,
      url,
    );
  }
  const from = new URL(url);
  const shown = clip(
    `${
      target.origin === "null" ? target.protocol : target.origin
    }${target.pathname}`,
  );
  if (target.username !== "" || target.password !== "") {
    throw new RepoProtocolError(
      `the repository redirected to ${shown} with a user name or password; that is not followed`,
      url,
    );
  }
  if (target.origin === from.origin) return target.href;
  if (withToken) {
    throw new RepoProtocolError(
      `the repository redirected to ${shown}, another origin; redirects to another origin are not followed with an API token`,
      url,
    );
  }
  const refusal = !["http:", "https:"].includes(target.protocol)
    ? "only http and https are followed"
    : target.protocol === "http:" && from.protocol === "https:"
    ? "a redirect from https to http is not followed"
    : undefined;
  if (refusal !== undefined) {
    throw new RepoProtocolError(
      `the repository redirected to ${shown}; ${refusal}`,
      url,
    );
  }
  return target.href;
}

/**
 * The parsed JSON body of `response`, each chunk restarting `deadline`. A
 * coding no runtime undoes (`br2`) is refused by name; a `deflate` body the
 * runtime left as it came is inflated here (zlib or, mislabelled, raw); a
 * body that stays unreadable names its coding.
 */
export async function jsonBody(
  response: Response,
  deadline: Deadline,
  url: string,
): Promise<unknown> {
  const header = response.headers.get("content-encoding") ?? "";
  const named = clip(JSON.stringify(header), 80);
  const codings = header.toLowerCase().split(",").map((c) => c.trim())
    .filter((c) => c !== "" && c !== "identity");
  const unknown = codings.find((coding) => !KNOWN_CODINGS.has(coding));
  if (unknown !== undefined) {
    throw new RepoProtocolError(
      `the repository's answer has Content-Encoding ${named}: ${
        clip(JSON.stringify(unknown), 80)
      } is not a coding this client can undo`,
      url,
    );
  }
  try {
    if (codings.length === 1 && codings[0] === "deflate") {
      return await inflatedJson(response, deadline, url);
    }
    return JSON.parse(await bodyText(response, deadline));
  } catch (error) {
    if (error instanceof TypeError && codings.length > 0) {
      // The runtime failed to undo the coding, or the connection dropped:
      // retried as a drop, and said with the coding if it persists.
      throw new TypeError(
        `${error.message} (an answer with Content-Encoding ${named})`,
        { cause: error },
      );
    }
    if (!(error instanceof SyntaxError)) throw error;
    throw new RepoProtocolError(
      codings.length === 0
        ? "the repository's answer is not JSON"
        : `the repository's answer with Content-Encoding ${named} is not JSON once decoded`,
      url,
    );
  }
}

/**
 * A `deflate` body as it came (a runtime that undid it), or inflated from
 * zlib or raw deflate data (one that did not): the first that is JSON.
 */
async function inflatedJson(
  response: Response,
  deadline: Deadline,
  url: string,
): Promise<unknown> {
  const bytes = await codedBytes(response, deadline, url);
  for (const format of [undefined, "deflate", "deflate-raw"] as const) {
    try {
      const text = format === undefined
        ? new TextDecoder().decode(bytes)
        : await bodyText(
          new Response(
            new Blob([bytes]).stream().pipeThrough(
              new DecompressionStream(format),
            ),
          ),
          deadline,
        );
      return JSON.parse(text);
    } catch (error) {
      // Not this form: a SyntaxError from JSON, a TypeError from inflating.
      if (!(error instanceof SyntaxError || error instanceof TypeError)) {
        throw error;
      }
    }
  }
  throw new RepoProtocolError(
    `the repository's answer has Content-Encoding "deflate" but is neither zlib nor raw deflate data of JSON`,
    url,
  );
}

/** The body as it came, at most {@linkcode MOST_CODED_BYTES} of it. */
async function codedBytes(
  response: Response,
  deadline: Deadline,
  url: string,
): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body ?? []) {
    deadline.rearm(chunk.byteLength);
    length += chunk.byteLength;
    if (length > MOST_CODED_BYTES) {
      throw new RepoProtocolError(
        `the repository's deflate answer goes on past ${
          MOST_CODED_BYTES / 1024 ** 2
        } MiB`,
        url,
      );
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

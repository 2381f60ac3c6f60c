/**
 * The repository's HTTP interface: the dataset listing (endpoint 2 and its
 * versions variant), collection contents (endpoint 1) and the file-access
 * HEAD (endpoint 3). Owns the token header, the JSON envelope and the mapping
 * of error answers to {@linkcode RepoHttpError}.
 *
 * @module
 */

import { RepoHttpError, RepoProtocolError } from "./errors.ts";
import { field, listedFiles } from "./listing_entry.ts";
import type { ListedFile } from "./routing_table.ts";
import { exchange, type Transport } from "./request.ts";
import { isRetriable, retrying, type RetryPolicy } from "./retry.ts";
import { hideSecret } from "./secrets.ts";

const TOKEN_HEADER = "X-Repo-key";
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The repository base (`.../api`) for a `host` option: a bare host name
 * means https; a value with a scheme is used as given. Refuses to pair a
 * token with plain http to a host that is not loopback.
 *
 * @example
 * ```ts
 * import { repositoryBase } from "./repo_api.ts";
 * repositoryBase("repo.example.org"); // "https://repo.example.org/api"
 * repositoryBase("http://127.0.0.1:8080"); // "http://127.0.0.1:8080/api"
 * ```
 */
export function repositoryBase(host: string, token?: string): string {
  if (typeof host !== "string" || host.trim() === "") {
    throw new TypeError(
      `host must be a non-empty string, got ${JSON.stringify(host)}`,
    );
  }
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host);
  let url: URL;
  try {
    url = new URL(hasScheme ? host : `https://${host}`);
  } catch {
    throw new TypeError(
      `host is not a host name or URL: ${JSON.stringify(host)}`,
    );
  }
  if (!hasScheme && host.includes("/")) {
    throw new TypeError(
      `host must be a host name or a URL with a scheme, got ${
        JSON.stringify(host)
      }`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(
      `host must use http or https, got ${JSON.stringify(host)}`,
    );
  }
  if (token !== undefined && url.protocol === "http:" && !isLoopback(url)) {
    throw new TypeError(
      `Refusing to send the API token over plain http to ${url.host}; use https`,
    );
  }
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path.endsWith("/api") ? path : `${path}/api`}`;
}

/**
 * Why a content URL must not be read, or `undefined` when it may: content
 * comes over `https:`, or over `http:` only from a repository that is itself
 * `http:` on loopback (a local server). Anything else (`file:`, `data:`, a
 * URL that does not parse) would read what the dataset does not hold.
 *
 * @example
 * ```ts
 * import { contentUrlProblem } from "./repo_api.ts";
 * contentUrlProblem("https://s3.example/b/k", "https://repo.example.org/api"); // undefined
 * contentUrlProblem("file:///etc/passwd", "https://repo.example.org/api"); // 'its scheme is "file:"; content is read over https only'
 * ```
 */
export function contentUrlProblem(
  url: string,
  base: string,
): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "it is not an absolute URL";
  }
  if (parsed.protocol === "https:") return undefined;
  const local = new URL(base);
  if (
    parsed.protocol === "http:" && local.protocol === "http:" &&
    isLoopback(local)
  ) {
    return undefined;
  }
  return `its scheme is ${
    JSON.stringify(parsed.protocol)
  }; content is read over https only`;
}

function isLoopback(url: URL): boolean {
  return LOOPBACK.test(url.hostname);
}

/**
 * Headers for a repository request: `X-Repo-key` only when a token is set.
 *
 * @example
 * ```ts
 * import { repositoryHeaders } from "./repo_api.ts";
 * repositoryHeaders(undefined); // {}
 * ```
 */
export function repositoryHeaders(token: string | undefined): HeadersInit {
  return token === undefined ? {} : { [TOKEN_HEADER]: token };
}

/**
 * The server's own words from an error answer: the `message` of a JSON
 * envelope, the `<Message>` of an S3 XML error, or the start of the text.
 *
 * @example
 * ```ts
 * import { errorDetail } from "./repo_api.ts";
 * await errorDetail(new Response('{"status":"ERROR","message":"Bad API key"}')); // "Bad API key"
 * ```
 */
export async function errorDetail(response: Response): Promise<string> {
  const text = (await response.text()).slice(0, 4096).trim();
  try {
    const body = JSON.parse(text);
    if (typeof body?.message === "string") return body.message;
  } catch {
    // not JSON: try XML, then plain text
  }
  const xml = /<Message>([^<]*)<\/Message>/.exec(text);
  if (xml) return xml[1];
  return text.slice(0, 200);
}

/**
 * The {@linkcode RepoHttpError} for a non-2xx answer, with the server's own
 * message and its `Retry-After`.
 *
 * @example
 * ```ts
 * import { failureFor } from "./repo_api.ts";
 * import { equal } from "node:assert/strict";
 * const e = await failureFor(new Response("{}", { status: 404 }), "https://r.example/api/x");
 * equal(e.status, 404);
 * ```
 */
export async function failureFor(
  response: Response,
  url: string,
): Promise<RepoHttpError> {
  return new RepoHttpError(response.status, url, await errorDetail(response), {
    retryAfter: response.headers.get("retry-after"),
  });
}

/**
 * How the file-access endpoint answered a HEAD: a redirect to a content URL,
 * or content served by the repository itself.
 *
 * @example
 * ```ts
 * import type { AccessAnswer } from "./repo_api.ts";
 * const a: AccessAnswer = { url: "https://s3.example/b/k?X-Amz-Signature=1", direct: false };
 * ```
 */
export interface AccessAnswer {
  /** Where to read content from. */
  url: string;
  /** True when `url` is the repository's own access endpoint (needs the token). */
  direct: boolean;
}

/**
 * A client of one repository, holding the token (which from then on no error
 * message shows), the transport and the retry policy.
 *
 * @example
 * ```ts ignore
 * import { RepoApi } from "./repo_api.ts";
 * import { RetryPolicy } from "./retry.ts";
 * const api = new RepoApi("https://repo.example.org/api", undefined, { fetch, timeoutMs: 60_000 }, new RetryPolicy());
 * const files = await api.listFiles("doi:10.5072/FK2/ABC", ":latest");
 * ```
 */
export class RepoApi {
  /**
   * @param base repository base URL, ending in `/api`
   * @param token API token, if any
   * @param transport fetch and timeout
   * @param retry retry policy
   */
  constructor(
    readonly base: string,
    readonly token: string | undefined,
    readonly transport: Transport,
    readonly retry: RetryPolicy,
  ) {
    if (token !== undefined) hideSecret(token);
  }

  /** The file-access URL of a file id. */
  accessUrl(fileId: number): string {
    return `${this.base}/access/datafile/${fileId}`;
  }

  /**
   * The dataset's files: endpoint 2 for `:latest`, the versions endpoint
   * otherwise.
   */
  async listFiles(
    pid: string,
    version: string,
    signal?: AbortSignal,
  ): Promise<Iterable<ListedFile>> {
    const query = `?persistentId=${encodeURIComponent(pid)}`;
    const latest = version === ":latest";
    const path = latest
      ? `/datasets/:persistentId/${query}`
      : `/datasets/:persistentId/versions/${versionSegment(version)}${query}`;
    const url = this.base + path;
    const data = await this.getData(path, signal);
    const versionObject = latest ? field(data, "latestVersion", url) : data;
    const files = field(versionObject, "files", url);
    if (!Array.isArray(files)) {
      throw new RepoProtocolError(
        "the dataset version's files is not an array",
        url,
      );
    }
    return listedFiles(files, url);
  }

  /** The items of a collection (endpoint 1), as sent. */
  async listCollection(
    alias: string,
    signal?: AbortSignal,
  ): Promise<unknown[]> {
    const path = `/repos/${encodeURIComponent(alias)}/contents`;
    const data = await this.getData(path, signal);
    if (!Array.isArray(data)) {
      throw new RepoProtocolError(
        "the collection contents are not an array",
        this.base + path,
      );
    }
    return data;
  }

  /**
   * One HEAD to the file-access endpoint, redirects not followed: a redirect
   * gives the content URL its `Location` names, once
   * {@linkcode contentUrlProblem} finds nothing wrong with it; a 2xx means
   * the repository serves the bytes itself.
   */
  head(fileId: number, signal?: AbortSignal): Promise<AccessAnswer> {
    const url = this.accessUrl(fileId);
    const headers = repositoryHeaders(this.token);
    return retrying(
      this.retry,
      signal,
      () =>
        exchange(
          this.transport,
          url,
          { method: "HEAD", headers },
          signal,
          async (response) => {
            if (response.status >= 300 && response.status < 400) {
              return {
                url: this.#redirectTarget(response, url),
                direct: false,
              };
            }
            if (response.ok) return { url, direct: true };
            const failure = await failureFor(response, url);
            if (isRetriable(failure)) throw failure;
            throw await this.#explainHead(response.status, url, signal);
          },
        ),
    );
  }

  #redirectTarget(response: Response, url: string): string {
    const location = response.headers.get("location");
    if (location === null) {
      throw new RepoProtocolError(
        `the repository answered ${response.status} without a Location header`,
        url,
      );
    }
    const problem = contentUrlProblem(location, this.base);
    if (problem !== undefined) {
      throw new RepoProtocolError(
        `the repository redirected to a content URL that is refused: ${problem}`,
        url,
      );
    }
    return location;
  }

  /** A HEAD answer has no body; a GET of the same URL carries the repository's message. */
  async #explainHead(
    status: number,
    url: string,
    signal?: AbortSignal,
  ): Promise<Error> {
    const headers = repositoryHeaders(this.token);
    try {
      return await exchange(
        this.transport,
        url,
        { headers },
        signal,
        async (response) => {
          if (response.status !== status) return new RepoHttpError(status, url);
          return await failureFor(response, url);
        },
      );
    } catch (error) {
      signal?.throwIfAborted();
      return new RepoHttpError(status, url, undefined, { cause: error });
    }
  }

  async getData(path: string, signal?: AbortSignal): Promise<unknown> {
    const url = this.base + path;
    const headers = {
      ...repositoryHeaders(this.token),
      Accept: "application/json",
    };
    return await retrying(
      this.retry,
      signal,
      () =>
        exchange(this.transport, url, { headers }, signal, async (response) => {
          if (!response.ok) throw await failureFor(response, url);
          let body: unknown;
          try {
            body = JSON.parse(await response.text());
          } catch (error) {
            if (error instanceof SyntaxError) {
              throw new RepoProtocolError(
                "the repository's answer is not JSON",
                url,
              );
            }
            throw error;
          }
          const status = (body as { status?: unknown })?.status;
          if (status !== "OK") {
            throw new RepoProtocolError(
              `the repository's envelope has status ${
                JSON.stringify(status)
              }, not "OK"`,
              url,
            );
          }
          return field(body, "data", url);
        }),
    );
  }
}

function versionSegment(version: string): string {
  return encodeURIComponent(version).replaceAll("%3A", ":");
}

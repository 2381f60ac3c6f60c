/**
 * The repository's HTTP interface: the dataset listing (endpoint 2, its
 * versions variant and the paged file list), the list of versions, the file
 * persistent-id lookup, collection contents (endpoint 1) and the
 * file-access HEAD (endpoint 3). Owns the token header, the JSON envelope
 * and the mapping of error answers to {@linkcode RepoHttpError}.
 *
 * @module
 */

import { RepoHttpError, RepoProtocolError } from "../base/errors.ts";
import { field, listedFiles } from "./listing_entry.ts";
import { jsonBody, MOST_REDIRECTS, redirectTarget } from "./json_answer.ts";
import type { ListedFile } from "../base/listed_file.ts";
import { exchange, plainFetch, type Transport } from "./request.ts";
import { isRetriable, type RetryCost, retrying, RetryPolicy } from "./retry.ts";
import { hideSecret, holdsSecret, redact } from "../base/secrets.ts";
import { deaccessionedError, explainNotFound } from "./unreadable.ts";
import {
  fetchHidesRedirects,
  hiddenRedirectError,
  isHiddenRedirect,
} from "./hidden_redirects.ts";

/** Header names as HTTP allows them (RFC 9110 tokens). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** URL path segments of unreserved characters, `/` between them. */
const PATH_SEGMENTS = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
/** What {@linkcode RepoApi.head} makes of a HEAD answered 405 or 501. */
const HEAD_REFUSED = Symbol("HEAD refused");

/**
 * The repository base (`.../api`) for a `host` option: a bare host name
 * means https; a value with a scheme is used as given. Refuses to pair a
 * token with plain http to a host that is not loopback.
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
 * Whether `url` is below the repository base `base` (its `.../api`): the
 * only URLs the API token goes to. A content URL said to be the
 * repository's own (served without a redirect) gets the token only when it
 * is, whatever a URL cache or a coordinator says of it.
 */
export function isRepositoryUrl(url: string, base: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // As fetch reads it: dot segments resolved, a user name kept apart.
  return parsed.href.startsWith(`${base}/`);
}

/**
 * Why a content URL must not be read, or `undefined` when it may: content
 * comes over `https:`, or over `http:` only from a repository that is itself
 * `http:` on loopback (a local server). Anything else (`file:`, `data:`, a
 * URL that does not parse) would read what the dataset does not hold. A URL
 * with a user name or password (which `fetch` sends on as an
 * `Authorization` header) or holding the API token is refused too: it
 * would take a credential where the token must not go, or onto disk.
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
  if (parsed.username !== "" || parsed.password !== "") {
    return "it carries a user name or password";
  }
  if (holdsSecret(url)) return "it carries the API token";
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

/** Whether `url` names this machine (localhost, 127.x.y.z, [::1]). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.test(url.hostname);
}

/**
 * What an installation calls things the spec names: the header that
 * carries the token, and the path of collections under `/api`.
 */
export interface RepoNames {
  /** The header that carries the API token. */
  tokenHeader: string;
  /** Collections are at `/api/{collectionsPath}/{alias}`. */
  collectionsPath: string;
  /**
   * Where `fetch` hides redirects, the query parameter that carries the
   * token to the file-access endpoint (Dataverse reads `key`), so that its
   * redirect to the store is followed without it.
   */
  tokenQuery?: string;
}

/** The spec's names: `X-Repo-key` and `repos`. */
export const DEFAULT_NAMES: Readonly<RepoNames> = Object.freeze({
  tokenHeader: "X-Repo-key",
  collectionsPath: "repos",
});

/**
 * The `tokenHeader` and `collectionsPath` options checked, defaults filled
 * in; a `TypeError` names a value that cannot be a header name or a path.
 */
export function repositoryNames(
  options: {
    tokenHeader?: string;
    collectionsPath?: string;
    tokenQuery?: string;
  },
): RepoNames {
  const {
    tokenHeader = DEFAULT_NAMES.tokenHeader,
    collectionsPath = DEFAULT_NAMES.collectionsPath,
  } = options;
  if (typeof tokenHeader !== "string" || !HEADER_NAME.test(tokenHeader)) {
    throw new TypeError(
      `tokenHeader must be an HTTP header name, got ${
        JSON.stringify(tokenHeader)
      }`,
    );
  }
  if (
    typeof collectionsPath !== "string" ||
    !PATH_SEGMENTS.test(collectionsPath) ||
    collectionsPath.split("/").some((segment) => /^\.\.?$/.test(segment))
  ) {
    throw new TypeError(
      `collectionsPath must be URL path segments such as "dataverses", got ${
        JSON.stringify(collectionsPath)
      }`,
    );
  }
  const { tokenQuery } = options;
  if (tokenQuery === undefined) return { tokenHeader, collectionsPath };
  if (typeof tokenQuery !== "string" || !/^[\w.-]+$/.test(tokenQuery)) {
    throw new TypeError(
      `tokenQuery must be a query parameter name such as "key", got ${
        JSON.stringify(tokenQuery)
      }`,
    );
  }
  return { tokenHeader, collectionsPath, tokenQuery };
}

/**
 * Headers for a repository request: the token in `header` (default
 * `X-Repo-key`), only when a token is set.
 */
export function repositoryHeaders(
  token: string | undefined,
  header: string = DEFAULT_NAMES.tokenHeader,
): HeadersInit {
  return token === undefined ? {} : { [header]: token };
}

/**
 * The error a request gives up with once retries ran out: a 429 says that
 * the repository rate-limited it and what the backoff cost, since real
 * installations send no message with a HEAD's 429 and no `Retry-After`.
 * Any other error is returned as it is.
 */
export function rateLimited(error: unknown, cost: RetryCost): unknown {
  if (!(error instanceof RepoHttpError) || error.status !== 429) return error;
  const backoff = (cost.waitedMs / 1000).toFixed(1);
  const said = error.detail === undefined ? "" : ` (${error.detail})`;
  return new RepoHttpError(
    429,
    error.url,
    `rate limited by the repository; gave up after ${cost.attempts} attempts and ${backoff} s of backoff${said}`,
    { cause: error, retryAfter: error.retryAfter },
  );
}

/**
 * The most of an error answer read: its start is all a message keeps, and
 * twice that so that a token crossing the cut is still whole when blanked.
 */
const ERROR_BODY_BYTES = 8192;

/**
 * The server's own words from an error answer: the `message` of a JSON
 * envelope or of a JSON `error` (GCS, after its `status` or `reason`), the
 * `<Code>` and `<Message>` of an S3-style XML error, or the start of the
 * text.
 * Only the first 8 KiB are read, however long the answer.
 */
export async function errorDetail(response: Response): Promise<string> {
  const text = redact(await textPrefix(response, ERROR_BODY_BYTES))
    .slice(0, ERROR_BODY_BYTES / 2).trim();
  try {
    const body = JSON.parse(text);
    if (typeof body?.message === "string") return body.message;
    const { error } = body ?? {};
    if (typeof error?.message === "string") {
      return coded(error.status ?? error.errors?.[0]?.reason, error.message);
    }
  } catch {
    // not JSON: try XML, then plain text
  }
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const xml = /<Message>([^<]*)<\/Message>/.exec(text);
  if (xml) return coded(code, xml[1]);
  return code ?? text.slice(0, 200);
}

/** `message`, after the store's own error code when it sent one. */
function coded(code: unknown, message: string): string {
  return typeof code === "string" && code !== ""
    ? `${code}: ${message}`
    : message;
}

/** The text of a body's first `limit` bytes; the rest is not read. */
async function textPrefix(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const bytes = new Uint8Array(limit);
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const taken = Math.min(value.byteLength, limit - length);
      bytes.set(value.subarray(0, taken), length);
      length += taken;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return new TextDecoder().decode(bytes.subarray(0, length));
}

/**
 * The {@linkcode RepoHttpError} for a non-2xx answer, with the server's own
 * message and its `Retry-After`.
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
 */
export interface AccessAnswer {
  /** Where to read content from. */
  url: string;
  /** True when `url` is the repository's own (it needs the token). */
  direct: boolean;
  /** The `Date` of the answer that carried `url`, epoch ms: the clock its expiry is judged by. */
  date?: number;
}

/** One page of a version's paged file list. */
export interface FilePage {
  /** The page's files, converted as they are taken. */
  files: Iterable<ListedFile>;
  /** How many entries the page holds. */
  length: number;
  /** `totalCount`: files in the whole version; `undefined` when the answer has none. */
  totalCount: number | undefined;
  /** The request URL. */
  url: string;
}

/** What a client of a repository is made from. */
export interface ConnectOptions {
  /** `repo.example.org`, or a URL with a scheme for a local server. */
  host: string;
  /** API token, if any. */
  token?: string;
  /** The header that carries the token; `X-Repo-key` when absent. */
  tokenHeader?: string;
  /** The collections path; `repos` when absent. */
  collectionsPath?: string;
  /** Where `fetch` hides redirects, the query parameter of the token on the file-access endpoint. */
  tokenQuery?: string;
  /** Transport; `globalThis.fetch` when absent. */
  fetch?: typeof fetch;
  /** Longest silence of a request, in milliseconds. */
  timeoutMs: number;
  /** Retry policy; the default one when absent. */
  retry?: RetryPolicy;
}

/**
 * A client of one repository, holding the token (which from then on no error
 * message shows), the installation's names, the transport and the retry
 * policy. Made with {@linkcode RepoApi.connect}.
 */
export class RepoApi {
  /**
   * The one way a client is made: checks the host (no token over plain
   * http but to a loopback host) and the installation's names.
   */
  static connect(options: ConnectOptions): RepoApi {
    const { host, token, timeoutMs, retry = new RetryPolicy() } = options;
    return new RepoApi(
      repositoryBase(host, token),
      token,
      {
        fetch: plainFetch(options.fetch),
        timeoutMs,
        answered: (url) => retry.noteAnswered(url),
      },
      retry,
      repositoryNames(options),
    );
  }

  private constructor(
    readonly base: string,
    readonly token: string | undefined,
    readonly transport: Transport,
    readonly retry: RetryPolicy,
    readonly names: RepoNames,
  ) {
    if (token !== undefined) hideSecret(token);
  }

  /** Whether `fetch` hides redirects: guessed from the runtime, learnt from an opaque answer. */
  #redirectsHidden = fetchHidesRedirects();
  /** Whether the access endpoint answered a HEAD 405 or 501: ask by ranged GET from then on. */
  #headRefused = false;

  /** Whether a redirect may be followed: no token, or one that travels in the query. */
  get #followable(): boolean {
    return this.token === undefined || this.names.tokenQuery !== undefined;
  }

  /** Headers of a repository request: the token, under the installation's header name. */
  get headers(): HeadersInit {
    return repositoryHeaders(this.token, this.names.tokenHeader);
  }

  /** The file-access URL of a file id; `format` `"original"` asks for an ingested file's original upload. */
  accessUrl(fileId: number, format?: "original"): string {
    const url = `${this.base}/access/datafile/${fileId}`;
    return format === undefined ? url : `${url}?format=${format}`;
  }

  /**
   * The version's files in one answer: endpoint 2 for `:latest`, the
   * versions endpoint otherwise. A deaccessioned dataset or version is a
   * {@linkcode DeaccessionedError}; a 404 for the persistent id of a file
   * says so (see {@linkcode explainNotFound}).
   */
  async listFiles(
    pid: string,
    version: string,
    signal?: AbortSignal,
  ): Promise<Iterable<ListedFile>> {
    const latest = version === ":latest";
    const path = latest
      ? `/datasets/:persistentId/${pidQuery(pid)}`
      : `/datasets/:persistentId/versions/${versionSegment(version)}${
        pidQuery(pid)
      }`;
    const url = this.base + path;
    let data: unknown;
    try {
      data = await this.getData(path, signal);
    } catch (error) {
      throw await explainNotFound(this, pid, error, signal);
    }
    let versionObject = data;
    if (latest) {
      if (typeof data !== "object" || data === null || Array.isArray(data)) {
        throw new RepoProtocolError("the dataset answer is not an object", url);
      }
      versionObject = (data as { latestVersion?: unknown }).latestVersion;
    }
    if (
      versionObject === undefined || versionObject === null ||
      (versionObject as { versionState?: unknown }).versionState ===
        "DEACCESSIONED"
    ) {
      throw await deaccessionedError(
        this,
        pid,
        latest ? undefined : version,
        signal,
      );
    }
    const files = field(versionObject, "files", url);
    return listedFiles(arrayOf(files, "the dataset version's files", url), url);
  }

  /**
   * One page of the version's file list, `limit` files from `offset` on
   * (newer installations; older ones answer 404).
   */
  async filePage(
    pid: string,
    version: string,
    offset: number,
    limit: number,
    signal?: AbortSignal,
  ): Promise<FilePage> {
    const path = `/datasets/:persistentId/versions/${
      versionSegment(version)
    }/files${pidQuery(pid)}&limit=${limit}&offset=${offset}`;
    const url = this.base + path;
    const envelope = await this.#getEnvelope(path, signal);
    const entries = arrayOf(
      field(envelope, "data", url),
      "the file list's data",
      url,
    );
    const { totalCount } = envelope as { totalCount?: unknown };
    if (
      totalCount !== undefined &&
      !(Number.isSafeInteger(totalCount) && (totalCount as number) >= 0)
    ) {
      throw new RepoProtocolError(
        `the file list's totalCount ${
          JSON.stringify(totalCount)
        } is not a count`,
        url,
      );
    }
    return {
      files: listedFiles(entries, url),
      length: entries.length,
      totalCount: totalCount as number | undefined,
      url,
    };
  }

  /** The dataset's versions (summaries, files left out), as sent. */
  async versionList(pid: string, signal?: AbortSignal): Promise<unknown[]> {
    const path = `/datasets/:persistentId/versions${
      pidQuery(pid)
    }&excludeFiles=true`;
    return arrayOf(
      await this.getData(path, signal),
      "the list of versions",
      this.base + path,
    );
  }

  /** What the repository knows of the file with this persistent id. */
  fileByPid(pid: string, signal?: AbortSignal): Promise<unknown> {
    return this.getData(`/files/:persistentId/${pidQuery(pid)}`, signal);
  }

  /** The items of a collection (endpoint 1), as sent. */
  async listCollection(
    alias: string,
    signal?: AbortSignal,
  ): Promise<unknown[]> {
    const path = `/${this.names.collectionsPath}/${
      encodeURIComponent(alias)
    }/contents`;
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
   * The content URL of a file: one HEAD to the file-access endpoint,
   * redirects not followed (a GET of the first byte instead, from the
   * first HEAD answered 405 or 501 on). A redirect gives the URL its
   * `Location` names (resolved against the access URL), once
   * {@linkcode contentUrlProblem} finds nothing wrong with it, and the
   * repository's own when it is below the base; a 2xx means the
   * repository serves the bytes itself. Where `fetch` hides
   * redirects (browsers; see {@linkcode fetchHidesRedirects}) and no token
   * is set, a one-byte ranged GET follows the redirect instead
   * (its `response.url` is the content URL); with a token there, a redirect is a
   * {@linkcode hiddenRedirectError}.
   */
  async head(
    fileId: number,
    signal?: AbortSignal,
    format?: "original",
  ): Promise<AccessAnswer> {
    const url = this.accessUrl(fileId, format);
    if (this.#redirectsHidden && this.#followable) {
      return await this.#follow(url, signal);
    }
    let answer = await this.#ask(url, this.#headRefused, signal);
    if (answer === HEAD_REFUSED) {
      this.#headRefused = true;
      answer = await this.#ask(url, true, signal);
    }
    if (answer !== undefined && answer !== HEAD_REFUSED) return answer;
    if (!this.#followable) throw hiddenRedirectError(url);
    this.#redirectsHidden = true;
    return await this.#follow(url, signal);
  }

  /**
   * One ask of the access endpoint, redirects not followed: a HEAD, or
   * (`ranged`) a GET of its first byte. {@linkcode HEAD_REFUSED} when the
   * HEAD is answered 405 or 501; `undefined` when `fetch` hid a redirect.
   */
  #ask(
    url: string,
    ranged: boolean,
    signal?: AbortSignal,
  ): Promise<AccessAnswer | typeof HEAD_REFUSED | undefined> {
    const init: RequestInit = ranged
      ? { headers: { ...this.headers, Range: "bytes=0-0" } }
      : { method: "HEAD", headers: this.headers };
    return this.#retrying(
      signal,
      () =>
        exchange(this.transport, url, init, signal, async (response) => {
          if (isHiddenRedirect(response)) return undefined;
          const date = httpDate(response.headers.get("date"));
          const { status } = response;
          if (status >= 300 && status < 400) {
            const target = this.#redirectTarget(response, url);
            return {
              url: target,
              direct: isRepositoryUrl(target, this.base),
              date,
            };
          }
          if (response.ok || (ranged && status === 416)) {
            return { url, direct: true, date };
          }
          if (!ranged && (status === 405 || status === 501)) {
            return HEAD_REFUSED;
          }
          const failure = await failureFor(response, url);
          if (ranged || isRetriable(failure)) throw failure;
          throw await this.#explainHead(status, url, signal);
        }),
    );
  }

  /**
   * The content URL where a redirect cannot be seen: where a one-byte
   * ranged GET (no token) ends up, checked like a `Location`; the access URL
   * itself when the repository answers without redirecting (a 416 too: an
   * empty file, served by the repository).
   */
  #follow(url: string, signal?: AbortSignal): Promise<AccessAnswer> {
    const { tokenQuery } = this.names;
    const asked = new URL(url);
    if (this.token !== undefined && tokenQuery !== undefined) {
      asked.searchParams.set(tokenQuery, this.token);
    }
    return this.#retrying(
      signal,
      () =>
        exchange(
          this.transport,
          asked.href,
          {
            headers: { Range: "bytes=0-0" },
            redirect: "follow",
          },
          signal,
          async (response) => {
            if (response.redirected) {
              return {
                url: this.#checkedTarget(response.url, url),
                direct: false,
              };
            }
            if (response.ok || response.status === 416) {
              return { url, direct: true };
            }
            throw await failureFor(response, url);
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
    return this.#checkedTarget(resolveReference(location, url), url);
  }

  /** `target`, unless {@linkcode contentUrlProblem} refuses it. */
  #checkedTarget(target: string, url: string): string {
    const problem = contentUrlProblem(target, this.base);
    if (problem !== undefined) {
      throw new RepoProtocolError(
        `the repository redirected to a content URL that is refused: ${problem}`,
        url,
      );
    }
    return target;
  }

  /** A HEAD answer has no body; a GET of the same URL carries the repository's message. */
  async #explainHead(
    status: number,
    url: string,
    signal?: AbortSignal,
  ): Promise<Error> {
    const headers = this.headers;
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

  /** The `data` of a JSON answer from `path` below the base. */
  async getData(path: string, signal?: AbortSignal): Promise<unknown> {
    const envelope = await this.#getEnvelope(path, signal);
    return field(envelope, "data", this.base + path);
  }

  /**
   * A JSON answer whose `status` is `OK`, retried like every request, its
   * redirects followed as {@linkcode redirectTarget} allows.
   */
  #getEnvelope(path: string, signal?: AbortSignal): Promise<object> {
    const headers = { ...this.headers, Accept: "application/json" };
    return this.#retrying(signal, async () => {
      let url = this.base + path;
      for (let redirects = 0;; redirects++) {
        const answer = await exchange(
          this.transport,
          url,
          {
            headers,
            redirect: this.#redirectsHidden && this.token === undefined
              ? "follow"
              : "manual",
          },
          signal,
          async (response, deadline) => {
            const target = redirectTarget(
              response,
              url,
              this.token !== undefined,
            );
            if (target !== undefined) return { target };
            if (!response.ok) throw await failureFor(response, url);
            return { body: await jsonBody(response, deadline, url) };
          },
        );
        if (answer.target === undefined) return envelope(answer.body, url);
        if (redirects === MOST_REDIRECTS) {
          throw new RepoProtocolError(
            `the repository redirected more than ${MOST_REDIRECTS} times`,
            this.base + path,
          );
        }
        url = answer.target;
      }
    });
  }

  /** {@linkcode retrying} with this policy; a 429 given up on says it was rate limited. */
  #retrying<T>(
    signal: AbortSignal | undefined,
    attempt: () => Promise<T>,
  ): Promise<T> {
    return retrying(this.retry, signal, attempt, rateLimited);
  }
}

/** Characters a URI reference may hold (RFC 3986). */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * `location` resolved against `url` when it is a relative reference (RFC
 * 9110 allows one in `Location`); as it is otherwise, for
 * {@linkcode contentUrlProblem} to judge.
 */
function resolveReference(location: string, url: string): string {
  const relative = URI_CHARACTERS.test(location) && !SCHEME.test(location) &&
    !/^[^/?#]*:/.test(location);
  if (!relative) return location;
  try {
    return new URL(location, url).href;
  } catch {
    return location; // such as "//[bad": an authority that does not parse
  }
}

/** `body` when it is an envelope whose `status` is `OK`. */
function envelope(body: unknown, url: string): object {
  const status = (body as { status?: unknown })?.status;
  if (status !== "OK") {
    throw new RepoProtocolError(
      `the repository's envelope has status ${
        JSON.stringify(status)
      }, not "OK"`,
      url,
    );
  }
  return body as object;
}

function pidQuery(pid: string): string {
  return `?persistentId=${encodeURIComponent(pid)}`;
}

function versionSegment(version: string): string {
  return encodeURIComponent(version).replaceAll("%3A", ":");
}

/** `value` when it is an array, else a {@linkcode RepoProtocolError} saying `what` is not one. */
function arrayOf(value: unknown, what: string, url: string): unknown[] {
  if (!Array.isArray(value)) {
    throw new RepoProtocolError(`${what} is not an array`, url);
  }
  return value;
}

/** The epoch ms of an HTTP `Date` header; `undefined` when absent or not a date. */
function httpDate(value: string | null): number | undefined {
  const time = value === null ? NaN : Date.parse(value);
  return Number.isFinite(time) ? time : undefined;
}

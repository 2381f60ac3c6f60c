/**
 * Error classes raised by repo-fs. Each names what went wrong; none carries
 * the API token or a pre-signed URL's credentials, and each keeps the
 * failure it came from as its `cause`.
 *
 * @module
 */

import { redact } from "./secrets.ts";

/** Longest URL or path shown in a one-line message. */
const SHOWN_CHARS = 200;

/** Options every repo-fs error takes: what caused it. */
export interface RepoErrorOptions {
  /** The failure this error explains. */
  cause?: unknown;
}

/**
 * A path that is not in the dataset.
 *
 * @example
 * ```ts
 * import { NotFoundError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new NotFoundError("climate.zarr/missing");
 * strictEqual(err.code, "ENOENT");
 * strictEqual(err.message, 'No such file or directory in the dataset: "climate.zarr/missing"');
 * ```
 */
export class NotFoundError extends Error {
  /** POSIX-style error code, as Deno's own file errors carry. */
  readonly code = "ENOENT";
  /** The dataset path that was asked for. */
  readonly path: string;
  /**
   * Makes the error for a missing path.
   * @param path the dataset path that is missing
   */
  constructor(path: string) {
    super(`No such file or directory in the dataset: "${clip(path)}"`);
    this.name = "NotFoundError";
    this.path = path;
  }
}

/**
 * File content was asked of a directory.
 *
 * @example
 * ```ts
 * import { IsADirectoryError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new IsADirectoryError("climate.zarr");
 * strictEqual(err.code, "EISDIR");
 * ```
 */
export class IsADirectoryError extends Error {
  /** POSIX-style error code. */
  readonly code = "EISDIR";
  /** The dataset path that is a directory. */
  readonly path: string;
  /**
   * Makes the error for a directory read as a file.
   * @param path the dataset path that is a directory
   */
  constructor(path: string) {
    super(`Is a directory, not a file: "${clip(path)}"`);
    this.name = "IsADirectoryError";
    this.path = path;
  }
}

/**
 * A non-2xx answer that retries did not cure. `message` carries the
 * repository's own message from its `{"status":"ERROR","message":...}`
 * envelope when it sent one (with the API token, and the credentials of
 * the pre-signed URL asked, blanked out; see {@linkcode hideQueryValues});
 * `url` has its query string removed.
 *
 * @example
 * ```ts
 * import { RepoHttpError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new RepoHttpError(401, "https://repo.example.org/api/datasets/:persistentId/?persistentId=doi:1/2", "Bad API key");
 * strictEqual(err.message, "HTTP 401 from https://repo.example.org/api/datasets/:persistentId/: Bad API key");
 * strictEqual(err.url, "https://repo.example.org/api/datasets/:persistentId/");
 * ```
 */
export class RepoHttpError extends Error {
  /** The HTTP status of the last answer. */
  readonly status: number;
  /** The request URL without query string (no credentials). */
  readonly url: string;
  /** The answer's `Retry-After` header, when it had one. */
  readonly retryAfter?: string;
  /** The server's own message, when it sent one (token and URL credentials blanked out). */
  readonly detail?: string;
  /**
   * Makes the error for an HTTP answer.
   * @param status HTTP status
   * @param url request URL; its query string is dropped
   * @param detail the server's own message, if any
   * @param options the `Retry-After` header and the cause
   */
  constructor(
    status: number,
    url: string,
    detail?: string,
    options: RepoErrorOptions & { retryAfter?: string | null } = {},
  ) {
    const bare = redact(withoutQuery(url));
    const said = detail && hideQueryValues(redact(detail), url);
    super(`HTTP ${status} from ${clip(bare)}${said ? `: ${said}` : ""}`, {
      cause: options.cause,
    });
    this.name = "RepoHttpError";
    this.status = status;
    this.url = bare;
    if (options.retryAfter) {
      this.retryAfter = hideQueryValues(redact(options.retryAfter), url);
    }
    if (said) this.detail = said;
  }
}

/**
 * An answer that breaks the protocol: not JSON, an envelope whose `status`
 * is not `OK`, a missing field, or a byte range that does not match what was
 * asked.
 *
 * @example
 * ```ts
 * import { RepoProtocolError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new RepoProtocolError("listing is not JSON", "https://repo.example.org/api/datasets/:persistentId/?persistentId=doi:1/2");
 * strictEqual(err.url, "https://repo.example.org/api/datasets/:persistentId/");
 * strictEqual(err.message, "listing is not JSON (https://repo.example.org/api/datasets/:persistentId/)");
 * ```
 */
export class RepoProtocolError extends Error {
  /** The request URL without query string, when there was one. */
  readonly url?: string;
  /**
   * Makes the error for an answer that breaks the protocol.
   * @param message what is wrong with the answer
   * @param url request URL; its query string is dropped
   * @param options the cause
   */
  constructor(message: string, url?: string, options: RepoErrorOptions = {}) {
    const bare = url === undefined ? undefined : redact(withoutQuery(url));
    const said = url === undefined ? message : hideQueryValues(message, url);
    super(redact(bare ? `${said} (${clip(bare)})` : said), options);
    this.name = "RepoProtocolError";
    this.url = bare;
  }
}

/**
 * The object behind a file changed while it was read: an answer of one read
 * or of one `open()` handle, resumes included, came from another object than
 * the first answer did (another `ETag` or `Last-Modified`, or a 412 to the
 * `If-Match` that named the first). Its bytes are not spliced in.
 *
 * @example
 * ```ts
 * import { RepoChangedError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new RepoChangedError('ETag "a1", then "b2"', "https://s3.example/b/k?X-Amz-Signature=abc");
 * strictEqual(err.message, 'the file changed during the read (ETag "a1", then "b2") (https://s3.example/b/k)');
 * strictEqual(err.url, "https://s3.example/b/k");
 * ```
 */
export class RepoChangedError extends Error {
  /** The request URL without query string. */
  readonly url: string;
  /**
   * Makes the error for a file that changed under a read.
   * @param change how the answers differ
   * @param url request URL; its query string is dropped
   * @param options the cause
   */
  constructor(change: string, url: string, options: RepoErrorOptions = {}) {
    const bare = redact(withoutQuery(url));
    super(
      redact(
        `the file changed during the read (${hideQueryValues(change, url)}) (${
          clip(bare)
        })`,
      ),
      options,
    );
    this.name = "RepoChangedError";
    this.url = bare;
  }
}

/**
 * The dataset, or the version of it that was asked for, is deaccessioned:
 * the repository still knows it but serves none of its files. The message
 * names the versions that remain readable.
 *
 * @example
 * ```ts
 * import { DeaccessionedError } from "@x/repo-fs";
 * import { equal } from "node:assert/strict";
 * const whole = new DeaccessionedError("doi:10.5072/FK2/X", undefined, ["1.0", "2.0"]);
 * equal(whole.message, "The dataset doi:10.5072/FK2/X is deaccessioned; readable versions: 1.0, 2.0");
 * const version = new DeaccessionedError("doi:10.5072/FK2/X", "1.0", []);
 * equal(version.message, "Version 1.0 of the dataset doi:10.5072/FK2/X is deaccessioned; no version remains readable");
 * ```
 */
export class DeaccessionedError extends Error {
  /** The dataset's persistent id. */
  readonly pid: string;
  /** The version asked for; `undefined` when the latest was. */
  readonly version?: string;
  /** Versions that can still be read, oldest first; `undefined` when the list could not be read. */
  readonly readableVersions?: string[];
  /**
   * Makes the error for a deaccessioned dataset or version.
   * @param pid the dataset's persistent id
   * @param version the version asked for, `undefined` for the latest
   * @param readableVersions versions still readable; `undefined` when unknown
   * @param options the cause: why the versions could not be listed
   */
  constructor(
    pid: string,
    version: string | undefined,
    readableVersions: string[] | undefined,
    options: RepoErrorOptions = {},
  ) {
    const what = version === undefined
      ? `The dataset ${pid}`
      : `Version ${version} of the dataset ${pid}`;
    const readable = readableVersions === undefined
      ? `its versions could not be listed: ${
        (options.cause as Error | undefined)?.message ?? "no answer"
      }`
      : readableVersions.length === 0
      ? "no version remains readable"
      : `readable versions: ${readableVersions.join(", ")}`;
    super(redact(`${what} is deaccessioned; ${readable}`), options);
    this.name = "DeaccessionedError";
    this.pid = pid;
    if (version !== undefined) this.version = version;
    if (readableVersions !== undefined) {
      this.readableVersions = readableVersions;
    }
  }
}

/**
 * A worker of a {@linkcode RepoFsPool} died while it held this request, or
 * the pool's workers could not start at all.
 *
 * @example
 * ```ts
 * import { WorkerCrashedError } from "@x/repo-fs";
 * import { equal } from "node:assert/strict";
 * const crashed = new WorkerCrashedError("out of memory");
 * equal(crashed.message, "A pool worker crashed while handling this request: out of memory");
 * const neverStarted = new WorkerCrashedError("SyntaxError", { startAttempts: 3 });
 * equal(neverStarted.message, "The pool's worker could not start (3 attempts): SyntaxError");
 * ```
 */
export class WorkerCrashedError extends Error {
  /**
   * Makes the error for a request lost with its worker.
   * @param reason what the worker reported, if anything
   * @param options `startAttempts`: the worker never started, after this many tries
   */
  constructor(reason: string, options: { startAttempts?: number } = {}) {
    const { startAttempts } = options;
    super(
      startAttempts === undefined
        ? `A pool worker crashed while handling this request: ${reason}`
        : `The pool's worker could not start (${startAttempts} attempts): ${reason}`,
    );
    this.name = "WorkerCrashedError";
  }
}

/**
 * Drops the query string and fragment of a URL: pre-signed URLs carry their
 * credentials there.
 */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * `text` with the values of `url`'s credential parameters blanked out (a
 * signature, credential, token, key or policy; values of 8 characters or
 * longer, as given, decoded or with lower-case escapes): a server's message
 * that quotes the pre-signed URL it was sent does not carry its signature
 * on.
 */
export function hideQueryValues(text: string, url: string): string {
  const cut = url.indexOf("?");
  if (cut === -1) return text;
  let clean = text;
  for (const pair of url.slice(cut + 1).split(/[&#]/)) {
    const equals = pair.indexOf("=");
    if (!CREDENTIAL_PARAMETER.test(pair.slice(0, Math.max(0, equals)))) {
      continue;
    }
    const raw = pair.slice(equals + 1);
    const lowerEscapes = raw.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
    for (const value of new Set([raw, lowerEscapes, decodedQueryValue(raw)])) {
      if (value.length >= 8) clean = clean.replaceAll(value, "***");
    }
  }
  return clean;
}

/** Query parameters that carry a pre-signed URL's credentials (S3, GCS, Azure, CloudFront). */
const CREDENTIAL_PARAMETER = /sig|credential|token|key|policy|auth/i;

function decodedQueryValue(raw: string): string {
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return raw;
  }
}

/**
 * A request that got no complete answer: the connection failed or dropped,
 * or the request timed out. Retried before it reaches the caller.
 *
 * @example
 * ```ts
 * import { RepoConnectionError } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const err = new RepoConnectionError("https://s3.example/b/k?X-Amz-Signature=abc", "connection reset");
 * strictEqual(err.message, "Request to https://s3.example/b/k failed: connection reset");
 * strictEqual(err.reason, "connection reset");
 * ```
 */
export class RepoConnectionError extends Error {
  /** The request URL without query string. */
  readonly url: string;
  /** What went wrong, as the message says it. */
  readonly reason: string;
  /**
   * Makes the error for a failed connection.
   * @param url request URL; its query string is dropped
   * @param reason what went wrong; URLs in it lose their query strings
   * @param options the cause
   */
  constructor(url: string, reason: string, options: RepoErrorOptions = {}) {
    const bare = redact(withoutQuery(url));
    const said = scrub(reason, url);
    super(`Request to ${clip(bare)} failed: ${said}`, {
      cause: scrubbedCause(options.cause, url),
    });
    this.name = "RepoConnectionError";
    this.url = bare;
    this.reason = said;
  }
}

/**
 * `text` with the token and `url`'s credentials blanked, and URLs' query
 * strings dropped.
 */
function scrub(text: string, url: string): string {
  return hideQueryValues(redact(text), url).replace(/\?[^\s)"']*/g, "");
}

/**
 * The failure under a connection error (`fetch`'s, which quotes the whole
 * URL) as it may be kept: an `Error` with the same name and a scrubbed
 * message; its stack, which repeats the message, is not kept.
 */
function scrubbedCause(cause: unknown, url: string): unknown {
  if (cause === undefined) return undefined;
  const safe = new Error(scrub(errorMessage(cause), url));
  if (cause instanceof Error) safe.name = cause.name;
  return safe;
}

/**
 * `text` cut in the middle to at most `shown` characters (200 unless
 * told), for one-line messages.
 */
export function clip(text: string, shown: number = SHOWN_CHARS): string {
  if (text.length <= shown) return text;
  const half = (shown - 1) / 2;
  return `${text.slice(0, Math.ceil(half))}…${text.slice(-Math.floor(half))}`;
}

/**
 * The message of whatever was thrown: an `Error`'s `message`, anything
 * else as a string.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

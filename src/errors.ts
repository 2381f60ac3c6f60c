/**
 * Error classes raised by repo-fs. Each names what went wrong; none carries
 * the API token or a pre-signed URL's credentials.
 *
 * @module
 */

/**
 * A path that is not in the dataset.
 *
 * @example
 * ```ts
 * import { NotFoundError } from "./errors.ts";
 * const err = new NotFoundError("climate.zarr/missing");
 * console.log(err.code); // "ENOENT"
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
    super(`No such file or directory in the dataset: "${path}"`);
    this.name = "NotFoundError";
    this.path = path;
  }
}

/**
 * File content was asked of a directory.
 *
 * @example
 * ```ts
 * import { IsADirectoryError } from "./errors.ts";
 * const err = new IsADirectoryError("climate.zarr");
 * console.log(err.code); // "EISDIR"
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
    super(`Is a directory, not a file: "${path}"`);
    this.name = "IsADirectoryError";
    this.path = path;
  }
}

/**
 * A non-2xx answer that retries did not cure. `message` carries the
 * repository's own message from its `{"status":"ERROR","message":...}`
 * envelope when it sent one; `url` has its query string removed.
 *
 * @example
 * ```ts
 * import { RepoHttpError } from "./errors.ts";
 * const err = new RepoHttpError(401, "https://repo.example.org/api/datasets/:persistentId/", "Bad API key");
 * console.log(err.message); // "HTTP 401 from https://repo.example.org/api/datasets/:persistentId/: Bad API key"
 * ```
 */
export class RepoHttpError extends Error {
  /** The HTTP status of the last answer. */
  readonly status: number;
  /** The request URL without query string (no credentials). */
  readonly url: string;
  /**
   * Makes the error for an HTTP answer.
   * @param status HTTP status
   * @param url request URL; its query string is dropped
   * @param detail the server's own message, if any
   */
  constructor(status: number, url: string, detail?: string) {
    const bare = withoutQuery(url);
    super(`HTTP ${status} from ${bare}${detail ? `: ${detail}` : ""}`);
    this.name = "RepoHttpError";
    this.status = status;
    this.url = bare;
  }
}

/**
 * An answer that breaks the protocol: not JSON, an envelope whose `status`
 * is not `OK`, a missing field, or a byte range that does not match what was
 * asked.
 *
 * @example
 * ```ts
 * import { RepoProtocolError } from "./errors.ts";
 * const err = new RepoProtocolError("listing is not JSON", "https://repo.example.org/api/datasets/:persistentId/?persistentId=doi:1/2");
 * console.log(err.url); // "https://repo.example.org/api/datasets/:persistentId/"
 * ```
 */
export class RepoProtocolError extends Error {
  /** The request URL without query string, when there was one. */
  readonly url?: string;
  /**
   * Makes the error for an answer that breaks the protocol.
   * @param message what is wrong with the answer
   * @param url request URL; its query string is dropped
   */
  constructor(message: string, url?: string) {
    const bare = url === undefined ? undefined : withoutQuery(url);
    super(bare ? `${message} (${bare})` : message);
    this.name = "RepoProtocolError";
    this.url = bare;
  }
}

/**
 * A worker of a {@linkcode RepoFsPool} died while it held this request.
 *
 * @example
 * ```ts
 * import { WorkerCrashedError } from "./errors.ts";
 * const err = new WorkerCrashedError("out of memory");
 * console.log(err.name); // "WorkerCrashedError"
 * ```
 */
export class WorkerCrashedError extends Error {
  /**
   * Makes the error for a request lost with its worker.
   * @param reason what the worker reported, if anything
   */
  constructor(reason: string) {
    super(`A pool worker crashed while handling this request: ${reason}`);
    this.name = "WorkerCrashedError";
  }
}

/**
 * Drops the query string and fragment of a URL: pre-signed URLs carry their
 * credentials there.
 *
 * @example
 * ```ts
 * import { withoutQuery } from "./errors.ts";
 * withoutQuery("https://s3.example/b/k?X-Amz-Signature=abc"); // "https://s3.example/b/k"
 * ```
 */
export function withoutQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

/**
 * A request that got no complete answer: the connection failed or dropped,
 * or the request timed out. Retried before it reaches the caller.
 *
 * @example
 * ```ts
 * import { RepoConnectionError } from "./errors.ts";
 * const err = new RepoConnectionError("https://s3.example/b/k?X-Amz-Signature=abc", "connection reset");
 * console.log(err.message); // "Request to https://s3.example/b/k failed: connection reset"
 * ```
 */
export class RepoConnectionError extends Error {
  /** The request URL without query string. */
  readonly url: string;
  /**
   * Makes the error for a failed connection.
   * @param url request URL; its query string is dropped
   * @param reason what went wrong; URLs in it lose their query strings
   */
  constructor(url: string, reason: string) {
    const bare = withoutQuery(url);
    super(`Request to ${bare} failed: ${reason.replace(/\?[^\s)"']*/g, "")}`);
    this.name = "RepoConnectionError";
    this.url = bare;
  }
}

/**
 * The messages between a {@linkcode RepoFsPool} and its workers, and how
 * errors cross that boundary with their class intact.
 *
 * @module
 */

import type { ArrayPartRequest, ArrayPartResult } from "../zarr/array_part.ts";
import type { ContentKey, ResolvedUrl } from "../repo/download_urls.ts";
import type { Downloaded } from "./file_download.ts";
import {
  DeaccessionedError,
  IsADirectoryError,
  NotFoundError,
  RepoConnectionError,
  RepoHttpError,
  RepoProtocolError,
  WorkerCrashedError,
} from "../base/errors.ts";
import type { SerializedRepoFs } from "../serialize.ts";

/**
 * What the main thread asks of a worker.
 *
 * @example
 * ```ts
 * import type { ToWorker } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const ask: ToWorker = { type: "cat", job: 1, path: "climate.zarr/.zgroup", start: 0, end: 24 };
 * deepStrictEqual(structuredClone(ask), ask); // plain data: it crosses postMessage whole
 * ```
 */
export type ToWorker =
  | { type: "init"; serialized: SerializedRepoFs }
  | { type: "cat"; job: number; path: string; start?: number; end?: number }
  | { type: "array"; job: number; request: ArrayPartRequest }
  | {
    type: "download";
    job: number;
    path: string;
    target: string;
    /** The temporary name beside `target`, chosen by the main thread. */
    temporary: string;
  }
  | { type: "cancel"; job: number }
  | { type: "resolved"; ask: number; url?: ResolvedUrl; error?: PlainError }
  | { type: "crash"; reason: string };

/**
 * What a worker tells the main thread. `ready` comes once, when its module
 * has loaded.
 *
 * @example
 * ```ts
 * import type { FromWorker } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const answer: FromWorker = { type: "resolve", ask: 1, file: { id: 42, format: "original" } };
 * deepStrictEqual(structuredClone(answer), answer); // plain data: it crosses postMessage whole
 * ```
 */
export type FromWorker =
  | { type: "ready" }
  | { type: "bytes"; job: number; bytes: Uint8Array }
  | { type: "array"; job: number; part: ArrayPartResult }
  | { type: "downloaded"; job: number; result: Downloaded }
  | { type: "progress"; job: number; bytes: number }
  | { type: "failed"; job: number; error: PlainError }
  | { type: "resolve"; ask: number; file: ContentKey; stale?: string }
  | { type: "withdraw"; ask: number };

/**
 * An error as plain data.
 *
 * @example
 * ```ts
 * import { flattenError, type PlainError } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const plain: PlainError = flattenError(new Error("no listing", { cause: new TypeError("bad JSON") }));
 * deepStrictEqual(plain, {
 *   name: "Error",
 *   message: "no listing",
 *   fields: {},
 *   cause: { name: "TypeError", message: "bad JSON", fields: {} },
 * });
 * ```
 */
export interface PlainError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
  /** What the error's `cause` was. */
  cause?: PlainError;
}

const CLASSES: Record<string, { prototype: Error }> = {
  DeaccessionedError,
  NotFoundError,
  IsADirectoryError,
  RepoHttpError,
  RepoProtocolError,
  RepoConnectionError,
  WorkerCrashedError,
  TypeError,
  RangeError,
};

/**
 * An error as plain data that survives `postMessage`, with its chain of
 * causes (the first eight).
 *
 * @example
 * ```ts
 * import { flattenError } from "./pool_protocol.ts";
 * import { RepoHttpError } from "../base/errors.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * strictEqual(flattenError(new RangeError("too far")).name, "RangeError");
 * const http = flattenError(new RepoHttpError(503, "https://repo.example.org/api/x", "busy"));
 * strictEqual(http.name, "RepoHttpError");
 * strictEqual(http.fields.status, 503);
 * deepStrictEqual(flattenError("not an Error"), { name: "Error", message: "not an Error", fields: {} });
 * ```
 */
export function flattenError(error: unknown, depth = 0): PlainError {
  if (!(error instanceof Error)) {
    return { name: "Error", message: String(error), fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (
      value === null || ["string", "number", "boolean"].includes(typeof value)
    ) {
      fields[key] = value;
    }
  }
  const plain: PlainError = {
    name: error.name,
    message: error.message,
    fields,
  };
  if (error.cause !== undefined && depth < 8) {
    plain.cause = flattenError(error.cause, depth + 1);
  }
  return plain;
}

/**
 * The error of the same class, message, fields and causes, on this side.
 *
 * @example
 * ```ts
 * import { flattenError, reviveError } from "./pool_protocol.ts";
 * import { NotFoundError } from "../base/errors.ts";
 * import { ok, strictEqual } from "node:assert/strict";
 * const e = reviveError(flattenError(new NotFoundError("a/b")));
 * ok(e instanceof NotFoundError);
 * strictEqual(e.path, "a/b");
 * strictEqual(e.code, "ENOENT");
 * ```
 */
export function reviveError(plain: PlainError): Error {
  const prototype = CLASSES[plain.name]?.prototype ?? Error.prototype;
  const error = Object.create(prototype) as Error;
  Object.assign(error, plain.fields);
  if (plain.cause) {
    Object.defineProperty(error, "cause", {
      value: reviveError(plain.cause),
      writable: true,
      configurable: true,
    });
  }
  Object.defineProperties(error, {
    message: { value: plain.message, writable: true, configurable: true },
    name: { value: plain.name, writable: true, configurable: true },
    stack: {
      value: `${plain.name}: ${plain.message}\n    at (pool worker)`,
      writable: true,
      configurable: true,
    },
  });
  return error;
}

/**
 * The buffers to transfer rather than copy.
 *
 * @example
 * ```ts
 * import { transferables } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const bytes = new Uint8Array(8);
 * deepStrictEqual(transferables(bytes), [bytes.buffer]);
 * deepStrictEqual(transferables(new Uint8Array(new SharedArrayBuffer(8))), []); // shared, not moved
 * deepStrictEqual(transferables("text"), []);
 * ```
 */
export function transferables(value: unknown): Transferable[] {
  if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) {
    return [value.buffer];
  }
  return [];
}

/**
 * The messages between a {@linkcode RepoFsPool} and its workers, and how
 * errors cross that boundary with their class intact.
 *
 * @module
 */

import type { ArrayPartRequest, ArrayPartResult } from "../zarr/array_part.ts";
import type {
  CachedUrl,
  ContentKey,
  ResolvedUrl,
} from "../repo/download_urls.ts";
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
import { CoordinatorError } from "../repo/coordinator_connection.ts";
import {
  Hdf5FormatError,
  Hdf5UnsupportedError,
} from "../formats/hdf5/errors.ts";
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
  | { type: "resolved"; answers: UrlAnswer[] }
  | { type: "known"; urls: CachedUrl[] }
  | { type: "crash"; reason: string };

/**
 * What a worker tells the main thread. `ready` comes once, when its module
 * has loaded.
 *
 * @example
 * ```ts
 * import type { FromWorker } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const asks: FromWorker = { type: "resolve", asks: [{ ask: 1, file: { id: 42, format: "original" } }] };
 * deepStrictEqual(structuredClone(asks), asks); // plain data: it crosses postMessage whole
 * ```
 */
export type FromWorker =
  | { type: "ready" }
  | { type: "bytes"; job: number; bytes: Uint8Array }
  | { type: "array"; job: number; part: ArrayPartResult }
  | { type: "downloaded"; job: number; result: Downloaded }
  | { type: "progress"; job: number; bytes: number }
  | { type: "failed"; job: number; error: PlainError }
  | { type: "resolve"; asks: UrlAsk[] }
  | { type: "withdraw"; asks: number[] };

/**
 * A worker's ask for the content URL of `file`; `stale` is a URL that
 * failed. Asks travel in batches (see {@linkcode Batch}).
 *
 * @example
 * ```ts
 * import type { UrlAsk } from "./pool_protocol.ts";
 * const again: UrlAsk = { ask: 2, file: { id: 42 }, stale: "https://s3.example/b/k?sig=old" };
 * ```
 */
export interface UrlAsk {
  /** The worker's number for this ask. */
  ask: number;
  /** Which content. */
  file: ContentKey;
  /** The URL that failed, if that is why it asks. */
  stale?: string;
}

/**
 * The main thread's answer to one {@linkcode UrlAsk}: the URL, or why
 * there is none.
 *
 * @example
 * ```ts
 * import { flattenError, type UrlAnswer } from "./pool_protocol.ts";
 * const found: UrlAnswer = { ask: 1, url: { url: "https://s3.example/b/k", direct: false, resolvedAt: 0, expiresAt: Infinity } };
 * const failed: UrlAnswer = { ask: 2, error: flattenError(new Error("HTTP 404")) };
 * ```
 */
export interface UrlAnswer {
  /** The number of the ask answered. */
  ask: number;
  /** The URL, when it was found. */
  url?: ResolvedUrl;
  /** Why it was not. */
  error?: PlainError;
}

/**
 * Items gathered during one run of the microtask queue and sent together:
 * the first `add` after a `send` queues one microtask that sends what was
 * added by then. An item can be taken back until it is sent. `hold` keeps
 * items for a later `flush` instead (the worker holds URL asks while the
 * main thread has enough of its asks to work on).
 *
 * @example
 * ```ts
 * import { Batch } from "./pool_protocol.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const sent: string[][] = [];
 * const batch = new Batch<number, string>((items) => sent.push(items));
 * batch.add(1, "a");
 * batch.add(2, "b");
 * batch.add(3, "c");
 * strictEqual(batch.take(2), true); // not sent yet: taken back
 * await Promise.resolve();
 * deepStrictEqual(sent, [["a", "c"]]);
 * strictEqual(batch.take(1), false); // already sent
 *
 * let holding = true;
 * const held = new Batch<number, string>((items) => sent.push(items), () => holding);
 * held.add(4, "d");
 * await Promise.resolve();
 * strictEqual(sent.length, 1); // held
 * holding = false;
 * held.flush();
 * deepStrictEqual(sent[1], ["d"]);
 * ```
 */
export class Batch<K, T> {
  readonly #items = new Map<K, T>();
  #queued = false;

  /**
   * @param send called with the items, in the order they were added
   * @param hold while it says `true`, items wait for a later `flush`
   */
  constructor(
    readonly send: (items: T[]) => void,
    readonly hold: () => boolean = () => false,
  ) {}

  /** Items added and not yet sent. */
  get size(): number {
    return this.#items.size;
  }

  /** Adds `item` under `key`; it is sent at the end of this microtask run. */
  add(key: K, item: T): void {
    this.#items.set(key, item);
    this.#queue();
  }

  /** Takes back the item under `key`; whether it was still unsent. */
  take(key: K): boolean {
    return this.#items.delete(key);
  }

  /** Sends what is waiting, unless `hold` says to keep it. */
  flush(): void {
    if (this.#items.size === 0 || this.hold()) return;
    const items = [...this.#items.values()];
    this.#items.clear();
    this.send(items);
  }

  #queue(): void {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.flush();
    });
  }
}

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
  CoordinatorError,
  DeaccessionedError,
  NotFoundError,
  IsADirectoryError,
  RepoHttpError,
  RepoProtocolError,
  RepoConnectionError,
  WorkerCrashedError,
  Hdf5FormatError,
  Hdf5UnsupportedError,
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

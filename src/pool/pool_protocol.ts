/**
 * The messages between a {@linkcode RepoFsPool} and its workers, and how
 * errors cross that boundary with their class intact.
 *
 * @module
 */

import type {
  ArrayPartRequest,
  ArrayPartResult,
} from "../formats/array_parts.ts";
import type { CachedUrl } from "../urls/download_urls.ts";
import type { PartKind } from "../formats/source.ts";
import type { ContentKey, ResolvedUrl } from "../base/types.ts";
import type { Downloaded } from "../download/file_download.ts";
import type {
  ParquetPart,
  ParquetPartRequest,
} from "../formats/parquet/parquet_parts.ts";
import { ParquetFormatError } from "../formats/parquet/parquet_format_error.ts";
import type {
  Raster,
  RasterPartRequest,
} from "../formats/geotiff/raster_parts.ts";
import { GeotiffFormatError } from "../formats/geotiff/geotiff_format_error.ts";
import {
  DeaccessionedError,
  IsADirectoryError,
  NotFoundError,
  RepoChangedError,
  RepoConnectionError,
  RepoHttpError,
  RepoProtocolError,
  WorkerCrashedError,
} from "../base/errors.ts";
import { CoordinatorError } from "../fleet/coordinator_error.ts";
import { FormatError } from "../base/format_error.ts";
import {
  Hdf5FormatError,
  Hdf5UnsupportedError,
} from "../formats/hdf5/errors.ts";
import type { SerializedRepoFs } from "../serialize.ts";
import type { Validators } from "../content/same_object.ts";

/** What the main thread asks of a worker. */
export type ToWorker =
  | { type: "init"; serialized: SerializedRepoFs }
  /** Parts of `kind` are coming: load the code that reads them. */
  | { type: "prepare"; kind: PartKind }
  | {
    type: "cat";
    job: number;
    path: string;
    start?: number;
    end?: number;
    /** The object an open handle's earlier answers were of, which this read's must be of too. */
    pinned?: Validators;
  }
  | { type: "array"; job: number; request: ArrayPartRequest }
  | { type: "parquet"; job: number; request: ParquetPartRequest }
  | { type: "raster"; job: number; request: RasterPartRequest }
  | {
    type: "download";
    job: number;
    path: string;
    target: string;
    /** The temporary name beside `target`, chosen by the main thread. */
    temporary?: string;
    /** Keep an interrupted download's bytes, and go on from those kept. */
    resume?: boolean;
    /** Keep an aborted download's bytes, starting from byte 0. */
    keepIfAborted?: boolean;
  }
  | { type: "cancel"; job: number }
  | { type: "resolved"; answers: UrlAnswer[] }
  | { type: "known"; urls: CachedUrl[] }
  | { type: "crash"; reason: string };

/**
 * What a worker tells the main thread. `ready` comes once, when its module
 * has loaded.
 */
export type FromWorker =
  | { type: "ready" }
  | {
    type: "bytes";
    job: number;
    bytes: Uint8Array;
    /** The object the answers were of; absent when none was asked for. */
    pinned?: Validators;
  }
  | { type: "array"; job: number; part: ArrayPartResult }
  | { type: "parquet"; job: number; rows: ParquetPart }
  | { type: "raster"; job: number; raster: Raster }
  | { type: "downloaded"; job: number; result: Downloaded }
  | { type: "progress"; job: number; bytes: number }
  | { type: "failed"; job: number; error: PlainError }
  | { type: "resolve"; asks: UrlAsk[] }
  | { type: "withdraw"; asks: number[] };

/**
 * A worker's ask for the content URL of `file`; `stale` is a URL that
 * failed. Asks travel in batches (see {@linkcode Batch}).
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

/** An error as plain data. */
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
  FormatError,
  NotFoundError,
  IsADirectoryError,
  ParquetFormatError,
  GeotiffFormatError,
  RepoHttpError,
  RepoProtocolError,
  RepoConnectionError,
  RepoChangedError,
  WorkerCrashedError,
  Hdf5FormatError,
  Hdf5UnsupportedError,
  TypeError,
  RangeError,
};

/**
 * An error as plain data that survives `postMessage`, with its chain of
 * causes (the first eight).
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

/** The error of the same class, message, fields and causes, on this side. */
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

/** The buffers to transfer rather than copy (of a view, or of each view of an array, once each). */
export function transferables(value: unknown): Transferable[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap(transferables))];
  if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) {
    return [value.buffer];
  }
  return [];
}

/**
 * The messages between a {@linkcode RepoFsPool} and its workers, and how
 * errors cross that boundary with their class intact.
 *
 * @module
 */

import type { ArrayPartRequest, ArrayPartResult } from "./array_part.ts";
import type { ResolvedUrl } from "./download_urls.ts";
import {
  IsADirectoryError,
  NotFoundError,
  RepoConnectionError,
  RepoHttpError,
  RepoProtocolError,
  WorkerCrashedError,
} from "./errors.ts";
import type { SerializedRepoFs } from "./serialize.ts";

/** What the main thread asks of a worker. */
export type ToWorker =
  | { type: "init"; serialized: SerializedRepoFs }
  | { type: "cat"; job: number; path: string; start?: number; end?: number }
  | { type: "array"; job: number; request: ArrayPartRequest }
  | { type: "resolved"; ask: number; url?: ResolvedUrl; error?: PlainError }
  | { type: "crash"; reason: string };

/** What a worker tells the main thread. */
export type FromWorker =
  | { type: "bytes"; job: number; bytes: Uint8Array }
  | { type: "array"; job: number; part: ArrayPartResult }
  | { type: "failed"; job: number; error: PlainError }
  | { type: "resolve"; ask: number; fileId: number; stale?: string };

/** An error as plain data. */
export interface PlainError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

const CLASSES: Record<string, { prototype: Error }> = {
  NotFoundError,
  IsADirectoryError,
  RepoHttpError,
  RepoProtocolError,
  RepoConnectionError,
  WorkerCrashedError,
  TypeError,
  RangeError,
};

/** An error as plain data that survives `postMessage`. */
export function flattenError(error: unknown): PlainError {
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
  return { name: error.name, message: error.message, fields };
}

/** The error of the same class, message and fields, on this side. */
export function reviveError(plain: PlainError): Error {
  const prototype = CLASSES[plain.name]?.prototype ?? Error.prototype;
  const error = Object.create(prototype) as Error;
  Object.assign(error, plain.fields);
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

/** The buffers to transfer rather than copy. */
export function transferables(value: unknown): Transferable[] {
  if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) {
    return [value.buffer];
  }
  return [];
}

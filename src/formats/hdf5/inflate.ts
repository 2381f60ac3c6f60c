/**
 * zlib streams inflated to at most the size their format declares: with
 * `node:zlib`'s `maxOutputLength` where there is one, else through a
 * `DecompressionStream` read piece by piece.
 *
 * @module
 */

import { inflateOptions } from "../inflate_options.ts";

type SyncInflate = (bytes: Uint8Array, limit: number) => Uint8Array;

let syncInflate: Promise<SyncInflate | undefined> | undefined;

async function loadSyncInflate(): Promise<SyncInflate | undefined> {
  try {
    const { inflateSync } = await import("node:zlib");
    if (typeof inflateSync !== "function") return undefined;
    return (bytes, limit) =>
      inflateSync(bytes, inflateOptions(bytes.length, limit));
  } catch {
    return undefined;
  }
}

/** Why a zlib stream was not inflated. */
export class InflateError extends Error {
  /** @param tooLarge whether it inflates past the limit (else it is not zlib data) */
  constructor(readonly tooLarge: boolean, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "InflateError";
  }
}

/**
 * The zlib stream `bytes` inflated; an {@linkcode InflateError} when it
 * holds more than `limit` bytes (stopping there) or is not a zlib stream.
 */
export async function inflateAtMost(
  bytes: Uint8Array,
  limit: number,
): Promise<Uint8Array> {
  const inflate = await (syncInflate ??= loadSyncInflate());
  if (inflate === undefined) return await streamInflate(bytes, limit);
  let out: Uint8Array;
  try {
    out = inflate(bytes, limit);
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      return tooLarge(limit);
    }
    throw new InflateError(
      false,
      `not a zlib stream: ${message(error)}`,
      error,
    );
  }
  if (out.length > limit) return tooLarge(limit);
  // A Buffer may be a view into a pool it shares: give a plain array that owns its memory.
  return out.byteLength === out.buffer.byteLength
    ? new Uint8Array(out.buffer, 0, out.byteLength)
    : new Uint8Array(out);
}

/** `inflateAtMost` through a `DecompressionStream`, where there is no `node:zlib`. */
export async function streamInflate(
  bytes: Uint8Array,
  limit: number,
): Promise<Uint8Array> {
  const reader = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new DecompressionStream("deflate")).getReader();
  const pieces: Uint8Array[] = [];
  let length = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (length + value.length > limit) {
        await reader.cancel().catch(() => {});
        return tooLarge(limit);
      }
      pieces.push(value);
      length += value.length;
    }
  } catch (error) {
    if (error instanceof InflateError) throw error;
    throw new InflateError(
      false,
      `not a zlib stream: ${message(error)}`,
      error,
    );
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function tooLarge(limit: number): never {
  throw new InflateError(true, `inflates past its declared ${limit} bytes`);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Sources that read and decode array parts in workers of their own.
 * `getArray` looks its source up here; a `RepoFsPool` offers itself when it
 * is made. None of this is public.
 *
 * @module
 */

import type { ArrayPartRequest, ArrayPartResult } from "./array_part.ts";

/** Reads and decodes array parts off the calling thread. */
export interface PartDecoder {
  /** How many parts can be decoded at once, one per worker. */
  readonly workers: number;
  /** Each request read and decoded by one worker; results in request order. */
  read(
    requests: ArrayPartRequest[],
    options?: { signal?: AbortSignal },
  ): Promise<ArrayPartResult[]>;
}

const decoders = new WeakMap<object, PartDecoder>();

/** Makes `decoder` the way `getArray` reads arrays of `source`. */
export function offerPartDecoder(source: object, decoder: PartDecoder): void {
  decoders.set(source, decoder);
}

/** The decoder `source` offered, if any. */
export function partDecoderOf(source: object): PartDecoder | undefined {
  return decoders.get(source);
}

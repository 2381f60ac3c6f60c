/**
 * A stored chunk undone through its filter pipeline (deflate, shuffle) into
 * the bytes its shape holds, inflating no further than those.
 *
 * @module
 */

import { Hdf5FormatError } from "./errors.ts";
import { type Filter, FilterId } from "./filters.ts";
import { inflateAtMost, InflateError } from "./inflate.ts";
import { unshuffle } from "./shuffle.ts";

/** Where a chunk is, for the errors that name it. */
export interface ChunkPlace {
  file: string;
  variable: string;
  key: string;
}

/** HDF5's limit on a chunk's size. */
const MAX_CHUNK_BYTES = 2 ** 32 - 1;

/** The most bytes deflate can make of `n` (zlib's deflateBound, with room to spare). */
export function deflatedBound(n: number): number {
  return n + Math.ceil(n / 8) + Math.ceil(n / 64) + 64;
}

/**
 * Refuses a stored chunk of `stored` bytes that cannot hold `bytes` decoded
 * bytes through `filters`, before anything is read or allocated for it.
 */
export function checkStoredSize(
  stored: number,
  bytes: number,
  filters: Filter[],
  place: ChunkPlace,
): void {
  if (bytes > MAX_CHUNK_BYTES) {
    throw new Hdf5FormatError(
      place.file,
      `chunk ${place.key} declares ${bytes} bytes, more than HDF5 allows a chunk (4 GiB)`,
      { variable: place.variable },
    );
  }
  const deflated = filters.some((f) => f.id === FilterId.deflate);
  const most = deflated ? deflatedBound(bytes) : bytes;
  if (stored > most) {
    throw new Hdf5FormatError(
      place.file,
      `chunk ${place.key} is stored in ${stored} bytes, more than its ${bytes} bytes of values can take${
        deflated ? " deflated" : ""
      }`,
      { variable: place.variable },
    );
  }
}

/**
 * `stored` with `filters` undone in reverse order, but for those `mask`
 * says were skipped (bit `i` for filter `i`): exactly `bytes` bytes.
 */
export async function decodeChunk(
  stored: Uint8Array,
  filters: Filter[],
  mask: number,
  bytes: number,
  place: ChunkPlace,
): Promise<Uint8Array> {
  let data = stored;
  for (let i = filters.length - 1; i >= 0; i--) {
    const filter = filters[i];
    if (mask & (1 << i)) continue;
    if (filter.id === FilterId.deflate) {
      data = await inflate(data, bytes, place);
    } else if (filter.id === FilterId.shuffle) {
      data = unshuffle(data, filter.values[0] ?? 1);
    }
  }
  if (data.length !== bytes) {
    throw new Hdf5FormatError(
      place.file,
      `chunk ${place.key} decodes to ${data.length} bytes, not the ${bytes} its shape holds`,
      { variable: place.variable },
    );
  }
  return data;
}

async function inflate(
  data: Uint8Array,
  bytes: number,
  place: ChunkPlace,
): Promise<Uint8Array> {
  try {
    return await inflateAtMost(data, bytes);
  } catch (error) {
    if (!(error instanceof InflateError)) throw error;
    throw new Hdf5FormatError(
      place.file,
      `chunk ${place.key} ${error.message}`,
      { variable: place.variable, cause: error },
    );
  }
}

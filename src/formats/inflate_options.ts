/**
 * The options with which `node:zlib`'s one-call inflate (`inflateSync`,
 * `gunzipSync`) decodes a chunk of known decoded size: stopping past it,
 * and writing it in one piece.
 *
 * @module
 */

/** Most bytes a deflate stream makes of one byte (zlib's 1032:1), with room to spare. */
const MOST_RATIO = 1040;

/** Most bytes of output asked for before any is made: more comes in more pieces. */
const PIECE_MOST = 64 * 2 ** 20;

/**
 * Options for inflating `stored` bytes that hold at most `limit`: an error
 * past `limit`, and the output in one piece of `limit` bytes where it can
 * be, so that it is neither joined from 16 KiB pieces nor copied (about a
 * third of the CPU of inflating a 1 MiB chunk), yet never more than the
 * stream can make (a bomb declaring gigabytes gets no such piece before it
 * inflates).
 */
export function inflateOptions(
  stored: number,
  limit: number,
): { maxOutputLength: number; chunkSize: number } {
  return {
    maxOutputLength: Math.max(1, limit),
    chunkSize: Math.max(
      64,
      Math.min(limit, stored * MOST_RATIO + 64, PIECE_MOST),
    ),
  };
}

/**
 * A file read forward in ranges that grow, so that a reader that stops
 * early has fetched little.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";

/** The first range read: enough for the head of most tables. */
export const FIRST_CHUNK = 16 * 1024;
/** Ranges double up to this size. */
export const LAST_CHUNK = 1024 * 1024;

/**
 * The bytes of `path` from `from` on, in ranges of {@linkcode FIRST_CHUNK}
 * doubling to {@linkcode LAST_CHUNK}, none reaching past `limit` while
 * below it, and from {@linkcode FIRST_CHUNK} again past it; it ends at the
 * first range that comes back short (the end of the file, whatever the
 * listing says).
 */
export async function* chunks(
  source: ByteSource,
  path: string,
  from: number,
  limit: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let size = FIRST_CHUNK;
  let past = false;
  for (let at = from;;) {
    if (!past && at >= limit) {
      // Past the window only the rest of its last line is wanted.
      past = true;
      size = FIRST_CHUNK;
    }
    const asked = past ? size : Math.min(size, limit - at);
    const bytes = await source.catFile(path, {
      start: at,
      end: at + asked,
      signal,
    });
    if (bytes.byteLength > 0) yield bytes;
    if (bytes.byteLength < asked) return;
    at += asked;
    size = Math.min(size * 2, LAST_CHUNK);
  }
}

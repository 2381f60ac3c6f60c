/**
 * How many times this thread has backed off to retry a request: the signal
 * of rate limits and server trouble for whoever paces requests (the chunk
 * read window of `getArray`), without a hook through every read.
 *
 * @module
 */

let retries = 0;

/**
 * Retries this thread has backed off for so far (rate limits, 5xx,
 * dropped or stalled connections), any request.
 */
export function retriesSoFar(): number {
  return retries;
}

/** Counts one retry; the retry policy calls it before each backoff. */
export function countRetry(): void {
  retries++;
}

/**
 * Where the retries of one source are counted: a `RepoFs` registers its
 * retry policy's count, and whoever paces that source's requests (the chunk
 * read window of `getArray`) reads it, so that one instance's rate limits
 * slow down only its own reads.
 *
 * @module
 */

const counts = new WeakMap<object, () => number>();

/** Registers `count`, the retries `source` has backed off for so far. */
export function countRetriesOf(source: object, count: () => number): void {
  counts.set(source, count);
}

/** The retries `source` has backed off for so far; always 0 for a source that counts none. */
export function retriesOf(source: object): () => number {
  return counts.get(source) ?? (() => 0);
}

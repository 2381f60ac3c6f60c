/**
 * A `fetch` that counts what the main thread asks of the repository: the
 * demo's figures when it reads a real repository (the emulator counts for
 * itself).
 *
 * @module
 */

/**
 * Wraps `globalThis.fetch`, counting listing requests and HEADs, and the
 * most HEADs in flight at once.
 *
 * @example
 * ```ts ignore
 * const counting = countingFetch();
 * const fs = new RepoFs({ host, pid, fetch: counting.fetch });
 * await fs.catFile("a");
 * console.log(counting.heads); // 1
 * ```
 */
export function countingFetch() {
  const counts = {
    listings: 0,
    heads: 0,
    peakHeads: 0,
    fetch: (async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes("/datasets/:persistentId")) counts.listings++;
      if (init?.method !== "HEAD") return await fetch(input, init);
      counts.heads++;
      inFlight++;
      counts.peakHeads = Math.max(counts.peakHeads, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    }) as typeof fetch,
  };
  let inFlight = 0;
  return counts;
}

/**
 * What the emulator counts.
 *
 * @module
 */

/**
 * Request and byte counts, updated live.
 *
 * @example
 * ```ts
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const response = await fetch(`${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`);
 * strictEqual(await response.text(), "hello"); // a GET, redirected to the store
 * strictEqual(emu.counters.accessGets, 1);
 * strictEqual(emu.counters.heads, 0);
 * strictEqual(emu.counters.storeGets, 1);
 * strictEqual(emu.counters.storeBytes, 5);
 * ```
 */
export interface EmulatorCounters {
  /**
   * Requests to the dataset and version endpoints: a version, each page of
   * its file list (404s included when `pagedFiles` is off), the list of
   * versions.
   */
  listingCalls: number;
  /** `listingCalls` being handled right now (latency wait included). */
  concurrentListingCalls: number;
  /** The most `concurrentListingCalls` seen since start or the last reset. */
  peakConcurrentListingCalls: number;
  /** Requests to the collection contents endpoint. */
  collectionCalls: number;
  /** HEAD requests on the access endpoint. */
  heads: number;
  /**
   * HEADs on the access endpoint being handled right now (latency and head
   * delay included; a HEAD whose client went away no longer counts).
   */
  concurrentHeads: number;
  /** The most `concurrentHeads` seen since start or the last reset. */
  peakConcurrentHeads: number;
  /** GET requests on the access endpoint. */
  accessGets: number;
  /** Requests to the object store, any method. */
  storeRequests: number;
  /** GET requests to the object store. */
  storeGets: number;
  /** Store GETs being handled right now (latency wait included). */
  concurrentStoreGets: number;
  /** The most `concurrentStoreGets` seen since start or the last reset. */
  peakConcurrentStoreGets: number;
  /** Body bytes the object store sent. */
  storeBytes: number;
  /** Body bytes the access endpoint sent itself (no-redirect mode). */
  accessBytes: number;
  /** Store requests that carried the token header; a correct client keeps this at 0. */
  storeRequestsWithToken: number;
  /** Requests answered by a failure rule. */
  failuresInjected: number;
}

/** All counts at zero. */
export function createCounters(): EmulatorCounters {
  return {
    listingCalls: 0,
    concurrentListingCalls: 0,
    peakConcurrentListingCalls: 0,
    collectionCalls: 0,
    heads: 0,
    concurrentHeads: 0,
    peakConcurrentHeads: 0,
    accessGets: 0,
    storeRequests: 0,
    storeGets: 0,
    concurrentStoreGets: 0,
    peakConcurrentStoreGets: 0,
    storeBytes: 0,
    accessBytes: 0,
    storeRequestsWithToken: 0,
    failuresInjected: 0,
  };
}

/**
 * Zeroes the counts in place. Requests still in flight stay counted in
 * `concurrentHeads`, `concurrentStoreGets` and `concurrentListingCalls`,
 * which also become the new peaks.
 */
export function resetCounters(counters: EmulatorCounters): void {
  Object.assign(counters, createCounters(), {
    concurrentHeads: counters.concurrentHeads,
    peakConcurrentHeads: counters.concurrentHeads,
    concurrentStoreGets: counters.concurrentStoreGets,
    peakConcurrentStoreGets: counters.concurrentStoreGets,
    concurrentListingCalls: counters.concurrentListingCalls,
    peakConcurrentListingCalls: counters.concurrentListingCalls,
  });
}

const IN_FLIGHT = {
  head: ["heads", "concurrentHeads", "peakConcurrentHeads"],
  storeGet: ["storeGets", "concurrentStoreGets", "peakConcurrentStoreGets"],
  listing: [
    "listingCalls",
    "concurrentListingCalls",
    "peakConcurrentListingCalls",
  ],
} as const;

/**
 * Counts one more request of a kind in flight and returns the function that
 * ends it.
 */
export function enterInFlight(
  counters: EmulatorCounters,
  kind: keyof typeof IN_FLIGHT,
): () => void {
  const [total, now, peak] = IN_FLIGHT[kind];
  counters[total]++;
  counters[now]++;
  counters[peak] = Math.max(counters[peak], counters[now]);
  return () => {
    counters[now]--;
  };
}

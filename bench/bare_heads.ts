/**
 * The HEAD-only baseline of the benchmark scripts: the HEADs a cold read
 * sends, as bare `fetch` calls, no GET and no decoding. What the
 * emulator's latency costs per HEAD, measured.
 *
 * @module
 */

import { inFlight } from "./in_flight.ts";

/**
 * Sends `HEAD {host}/api/access/datafile/{id}` (`redirect: "manual"`) for
 * every id, `concurrency` at a time, each expected to answer 303; resolves
 * to the mean round trip in ms.
 *
 * @example
 * ```ts ignore
 * const meanMs = await bareHeads(emu.host, [emu.fileId("a.txt")], 3);
 * ```
 */
export async function bareHeads(
  host: string,
  ids: readonly number[],
  concurrency: number,
): Promise<number> {
  let roundTrips = 0;
  await inFlight(concurrency, ids.length, async (i) => {
    const id = ids[i];
    const sent = performance.now();
    const response = await fetch(`${host}/api/access/datafile/${id}`, {
      method: "HEAD",
      redirect: "manual",
    });
    await response.body?.cancel();
    roundTrips += performance.now() - sent;
    if (response.status !== 303) {
      throw new Error(`HEAD ${id}: ${response.status}`);
    }
  });
  return roundTrips / ids.length;
}

/**
 * Writing every byte to a sink whose `write` may take only some of them.
 *
 * @module
 */

/**
 * Something bytes can be written to, as `Deno.stdout` and `Deno.FsFile` are.
 *
 * @example
 * ```ts
 * import type { ByteSink } from "./write_all.ts";
 * const sink: ByteSink = Deno.stdout;
 * ```
 */
export interface ByteSink {
  /** Writes some of `bytes`; resolves to how many. */
  write(bytes: Uint8Array): Promise<number>;
}

/**
 * Writes every byte, however many calls the sink needs.
 *
 * @example
 * ```ts
 * import { writeAll } from "./write_all.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const calls: number[][] = [];
 * const twoAtATime = {
 *   write: (bytes: Uint8Array) => {
 *     calls.push([...bytes.subarray(0, 2)]);
 *     return Promise.resolve(Math.min(2, bytes.byteLength));
 *   },
 * };
 * await writeAll(twoAtATime, new Uint8Array([1, 2, 3, 4, 5]));
 * deepStrictEqual(calls, [[1, 2], [3, 4], [5]]);
 * ```
 */
export async function writeAll(
  sink: ByteSink,
  bytes: Uint8Array,
): Promise<void> {
  let done = 0;
  while (done < bytes.byteLength) {
    done += await sink.write(bytes.subarray(done));
  }
}

/**
 * `getRange` of a zarrita store that reads whole keys: the part of what its
 * `get` gave.
 *
 * @module
 */

import type { RangeQuery } from "zarrita";

/** Part `range` of `bytes` (a key's whole value); `undefined` for a missing key. */
export function rangeOf(
  bytes: Uint8Array | undefined,
  range: RangeQuery,
): Uint8Array | undefined {
  if (bytes === undefined) return undefined;
  if ("suffixLength" in range) {
    return bytes.subarray(Math.max(0, bytes.length - range.suffixLength));
  }
  return bytes.subarray(range.offset, range.offset + range.length);
}

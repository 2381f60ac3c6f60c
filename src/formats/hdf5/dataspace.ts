/**
 * Dataspace messages: an object's shape.
 *
 * @module
 */

import { type Cursor, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";

/** A shape, and the most each axis may grow to (`null`: unlimited); `null` for an empty dataspace. */
export interface Dataspace {
  shape: number[];
  maxShape: (number | null)[];
}

/** Reads a dataspace message; `undefined` for a null dataspace (no elements at all). */
export function readDataspace(c: Cursor): Dataspace | undefined {
  const version = c.u8();
  const rank = c.u8();
  const flags = c.u8();
  let type = rank === 0 ? 0 : 1;
  if (version === 1) c.skip(5);
  else if (version === 2) type = c.u8();
  else {throw new Hdf5FormatError(
      c.path,
      `dataspace version ${version} at address ${c.at}`,
    );}
  if (type === 2) return undefined;
  const shape = Array.from({ length: rank }, () => c.length());
  const maxShape = flags & 1
    ? Array.from({ length: rank }, () => {
      const max = c.length();
      return max === UNDEFINED_ADDRESS ? null : max;
    })
    : [...shape];
  return { shape, maxShape };
}

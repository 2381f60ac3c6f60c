/**
 * Lines out of bytes: a line ends at `\n`, and a `\r` before it is dropped.
 *
 * @module
 */

import { concat } from "../../content/content.ts";

/** `\n`. */
export const NEWLINE = 0x0a;
const RETURN = 0x0d;
const utf8 = new TextDecoder();

/** The text of a line from its pieces, without its `\r` if it had one. */
export function lineText(pieces: Uint8Array[]): string {
  let bytes = concat(pieces);
  if (bytes.at(-1) === RETURN) bytes = bytes.subarray(0, -1);
  return utf8.decode(bytes);
}

/** Where the next `\n` at or after `from` is; -1 when there is none. */
export function nextNewline(bytes: Uint8Array, from = 0): number {
  return bytes.indexOf(NEWLINE, from);
}

/** Whether `bytes` end with `\n`. */
export function endsWithNewline(bytes: Uint8Array): boolean {
  return bytes.at(-1) === NEWLINE;
}

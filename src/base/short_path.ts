/**
 * Paths shortened for one line of a message: a listing may name a path
 * thousands of levels deep, and a message line must stay readable.
 *
 * @module
 */

import { clip } from "./errors.ts";

/** The longest path (or word) shown whole, in characters. */
const LONGEST_SHOWN = 120;

/** `path` as it is when short, else its first and last parts around `…`. */
export function shortPath(path: string): string {
  return clip(path, LONGEST_SHOWN);
}

/**
 * `text` with every run of non-space characters longer than a path is
 * shown (a path inside a system error, say) shortened by
 * {@linkcode shortPath}.
 */
export function shortWords(text: string): string {
  return text.replace(/\S{121,}/g, shortPath);
}

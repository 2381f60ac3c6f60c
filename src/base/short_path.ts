/**
 * Paths shortened for one line of a message: a listing may name a path
 * thousands of levels deep, and a message line must stay readable.
 *
 * @module
 */

/** The longest path (or word) shown whole, in UTF-16 units. */
const LONGEST_SHOWN = 120;

/**
 * `path` as it is when short, else its first and last parts around `…`.
 */
export function shortPath(path: string): string {
  if (path.length <= LONGEST_SHOWN) return path;
  const keep = Math.floor((LONGEST_SHOWN - 1) / 2);
  let head = keep;
  let tail = path.length - keep;
  // Never cut a character written as two UTF-16 units in half.
  if (isLowSurrogate(path.charCodeAt(head))) head--;
  if (isLowSurrogate(path.charCodeAt(tail))) tail++;
  return `${path.slice(0, head)}…${path.slice(tail)}`;
}

/**
 * `text` with every run of non-space characters longer than a path is
 * shown (a path inside a system error, say) shortened by
 * {@linkcode shortPath}.
 */
export function shortWords(text: string): string {
  return text.replace(/\S{121,}/g, shortPath);
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Sizes as people read them.
 *
 * @module
 */

/** `1.5 MiB`, `12 B`, or `size unknown` for `null`. */
export function humanSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "size unknown";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

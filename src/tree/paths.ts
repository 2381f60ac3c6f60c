/**
 * Dataset paths: plain `/`-separated keys relative to the dataset root, with
 * no leading slash and no protocol prefix. The root is `""`.
 *
 * @module
 */

const PROTOCOL_PREFIX = "repo://";
/** What makes a string something other than a plain key. */
const NOT_A_KEY = /^repo:\/\/|^\/|\/$|\/\/|(?:^|\/)\.\.?(?:\/|$)|\0/;

/**
 * Turns a caller's path into a routing-table key: drops a leading `repo://`,
 * leading, trailing and repeated `/`. A `.` or `..` segment, or a NUL, is a
 * `TypeError` naming the path.
 *
 * @example
 * ```ts
 * import { normalizePath } from "./paths.ts";
 * normalizePath("repo:///climate.zarr//temp/"); // "climate.zarr/temp"
 * normalizePath("/"); // ""
 * ```
 */
export function normalizePath(path: string): string {
  if (typeof path !== "string") {
    throw new TypeError(`A dataset path must be a string, got ${typeof path}`);
  }
  if (!NOT_A_KEY.test(path)) return path;
  const bare = path.startsWith(PROTOCOL_PREFIX)
    ? path.slice(PROTOCOL_PREFIX.length)
    : path;
  const segments = bare.split("/").filter((s) => s !== "");
  for (const segment of segments) {
    if (segment === "." || segment === "..") {
      throw new TypeError(
        `A dataset path may not contain a "${segment}" segment: "${path}"`,
      );
    }
  }
  if (bare.includes("\0")) {
    throw new TypeError(`A dataset path may not contain a NUL character`);
  }
  return segments.join("/");
}

/**
 * The key of the directory holding `key` (`""` for a root-level key).
 *
 * @example
 * ```ts
 * import { parentKey } from "./paths.ts";
 * parentKey("a/b.c/d"); // "a/b.c"
 * parentKey("top.txt"); // ""
 * ```
 */
export function parentKey(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash === -1 ? "" : key.slice(0, slash);
}

/**
 * The last segment of a key.
 *
 * @example
 * ```ts
 * import { baseName } from "./paths.ts";
 * baseName("a/b.c/d"); // "d"
 * ```
 */
export function baseName(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

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
 * Why `key` is not a plain key of a file or directory below the root, or
 * `undefined` when it is one: it must be non-empty and relative, with no
 * empty, `.` or `..` segment. The one rule for dataset paths, used by
 * {@linkcode normalizePath} and by every check of a path written to disk.
 */
export function keyProblem(key: string): string | undefined {
  if (key === "") return "it is empty";
  if (key.startsWith("/")) return "it is absolute (starts with /)";
  for (const segment of key.split("/")) {
    if (segment === "") return "it has an empty segment";
    if (segment === "." || segment === "..") {
      return `it has a "${segment}" segment`;
    }
  }
  return undefined;
}

/**
 * Turns a caller's path into a routing-table key: drops a leading `repo://`,
 * leading, trailing and repeated `/`. A `.` or `..` segment, or a NUL, is a
 * `TypeError` naming the path.
 */
export function normalizePath(path: string): string {
  if (typeof path !== "string") {
    throw new TypeError(`A dataset path must be a string, got ${typeof path}`);
  }
  if (!NOT_A_KEY.test(path)) return path;
  const bare = path.startsWith(PROTOCOL_PREFIX)
    ? path.slice(PROTOCOL_PREFIX.length)
    : path;
  return cleanKey(path, bare);
}

/**
 * Turns a path as the listing gives it into a routing-table key: as
 * {@linkcode normalizePath}, but a leading `repo://` is a directory named
 * `repo:` there, not the prefix a caller may type, so that no listed file
 * takes the key of another.
 */
export function listedKey(path: string): string {
  return NOT_A_KEY.test(path) ? cleanKey(path, path) : path;
}

/** `bare` as a key: without empty segments, checked; `path` names it in errors. */
function cleanKey(path: string, bare: string): string {
  const key = bare.split("/").filter((s) => s !== "").join("/");
  const problem = key === "" ? undefined : keyProblem(key);
  if (problem !== undefined) {
    throw new TypeError(
      `The dataset path ${JSON.stringify(path)} is refused: ${problem}`,
    );
  }
  if (bare.includes("\0")) {
    throw new TypeError(`A dataset path may not contain a NUL character`);
  }
  return key;
}

/** The key of the directory holding `key` (`""` for a root-level key). */
export function parentKey(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash === -1 ? "" : key.slice(0, slash);
}

/** The last segment of a key. */
export function baseName(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

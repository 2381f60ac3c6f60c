/**
 * Glob patterns over routing-table keys, with the rules of fsspec >= 2023.12
 * (`AbstractFileSystem.glob` and `fsspec.utils.glob_translate`):
 *
 * - `*` matches any run of characters inside one name, `?` one character,
 *   `[abc]`, `[a-z]` and `[!abc]` one character of (or not of) a set; none of
 *   them crosses a `/`. `[^abc]` is not a negation: `^` is a member.
 * - `**` as a whole segment spans zero or more directories; `**` inside a name
 *   (`a**b`) is rejected, as fsspec rejects it.
 * - Names starting with a dot match like any other name.
 * - A pattern with a wildcard that ends in `/` matches directories only (`*\/`
 *   lists the top directories), as in fsspec and a shell.
 * - Consecutive `**` segments are one.
 * - There is no escape character: a `\` is a plain character.
 *
 * A pattern compiles to the fixed directory it starts at, how deep below it to
 * look, and a matcher, so that a glob is one `find` plus a filter.
 *
 * @module
 */

import { normalizePath } from "./paths.ts";

/**
 * A compiled glob pattern. For a non-literal pattern the matching keys are
 * `find(prefix, { maxdepth: depth, withdirs: true })` filtered by
 * {@linkcode CompiledGlob.matches}; for a literal one, `prefix` itself when it
 * exists.
 */
export interface CompiledGlob {
  /** The fixed leading directory key handed to `find` (`""` for the root). */
  readonly prefix: string;
  /**
   * The `maxdepth` handed to `find`: the number of segments from the first
   * wildcard segment to the end; `undefined` (unlimited) when the pattern has
   * a `**` segment; `0` for a literal pattern, which needs no `find`.
   */
  readonly depth: number | undefined;
  /**
   * `true` when the pattern names one path without any wildcard; the glob's
   * result is then `[prefix]` if that path exists, else `[]`. The root
   * (an empty pattern) is never a result, so it is not literal.
   */
  readonly literal: boolean;
  /**
   * Does a routing-table key match the whole pattern? `isDirectory` matters
   * for a pattern ending in `/`, which only directories match, and for one
   * ending in `/**`: there, as in fsspec, a directory also matches as the
   * place the `**` starts (`a/**` gives `a` itself when `a` is a directory,
   * never when it is a file). The root key `""` never matches.
   */
  readonly matches: (key: string, isDirectory?: boolean) => boolean;
}

/**
 * Compiles a user's glob pattern once. A leading `repo://`, leading and
 * repeated `/` are dropped, as for any dataset path; a trailing `/` keeps
 * only directories (a literal pattern names its path either way).
 *
 * @throws {TypeError} for a `.` or `..` segment, a NUL, or `**` inside a name.
 */
export function compileGlob(pattern: string): CompiledGlob {
  const path = normalizePath(pattern).replace(
    /(?<=^|\/)\*\*(?:\/\*\*)+(?=\/|$)/g,
    "**",
  );
  const regex = new RegExp(`^(?:${translatePath(path)})$`, "su");
  const slashDirectories = path.endsWith("/**");
  const firstWildcard = path.search(/[*?[]/);
  const directoriesOnly = firstWildcard !== -1 && pattern.endsWith("/");
  const matches = (key: string, isDirectory = false): boolean =>
    key !== "" && (isDirectory || !directoriesOnly) &&
    regex.test(slashDirectories && isDirectory ? `${key}/` : key);

  if (firstWildcard === -1) {
    return path === ""
      ? { prefix: "", depth: 1, literal: false, matches }
      : { prefix: path, depth: 0, literal: true, matches };
  }
  const lastFixedSlash = path.lastIndexOf("/", firstWildcard);
  return {
    prefix: lastFixedSlash === -1 ? "" : path.slice(0, lastFixedSlash),
    depth: path.includes("**")
      ? undefined
      : path.slice(lastFixedSlash + 1).split("/").length,
    literal: false,
    matches,
  };
}

function translatePath(path: string): string {
  const segments = path.split("/");
  const last = segments.length - 1;
  const groups = { count: 0 };
  return segments.map((segment, index) => {
    const separator = index < last ? "/" : "";
    if (segment === "**") return index < last ? "(?:.+/)?" : ".*";
    if (segment.includes("**")) {
      throw new TypeError(
        `Invalid glob pattern "${path}": "**" can only be a whole path segment`,
      );
    }
    // A lone `*` needs at least one character, so it never matches an empty name.
    if (segment === "*") return `[^/]+${separator}`;
    return translateName(segment, groups) + separator;
  }).join("");
}

/**
 * Regex for one name. The pieces between its `*`s each match one character
 * per pattern element, so taking each at its first place is never wrong;
 * each piece but the last is taken there atomically (a lookahead captured,
 * then consumed by its backreference), so that `*a*a*a*b` costs time in
 * proportion to the name, not to a power of it.
 */
function translateName(name: string, groups: { count: number }): string {
  const pieces = pieceRegexes(name);
  const last = pieces.length - 1;
  return pieces.map((piece, index) => {
    if (index === 0) return piece;
    if (index === last) return `[^/]*${piece}`;
    const group = ++groups.count;
    return `(?=([^/]*?${piece}))\\${group}`;
  }).join("");
}

/** The regexes of the pieces of `name` between its `*`s, in order. */
function pieceRegexes(name: string): string[] {
  const chars = Array.from(name);
  const pieces = [""];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i++];
    if (c === "*") {
      pieces.push("");
    } else if (c === "?") {
      pieces[pieces.length - 1] += "[^/]";
    } else if (c === "[") {
      const close = closingBracket(chars, i);
      if (close === -1) {
        pieces[pieces.length - 1] += "\\[";
      } else {
        pieces[pieces.length - 1] += translateClass(chars.slice(i, close));
        i = close + 1;
      }
    } else {
      pieces[pieces.length - 1] += c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
    }
  }
  return pieces;
}

/** Index of the `]` closing a class opened just before `start`, or -1. */
function closingBracket(chars: string[], start: number): number {
  let j = start;
  if (chars[j] === "!") j++;
  if (chars[j] === "]") j++;
  while (j < chars.length && chars[j] !== "]") j++;
  return j < chars.length ? j : -1;
}

/** Regex for the class whose members (between the brackets) are `body`. */
function translateClass(body: string[]): string {
  const negated = body[0] === "!";
  const chunks: string[][] = [];
  let start = 0;
  let hyphen = body.indexOf("-", negated ? 2 : 1);
  while (hyphen !== -1) {
    chunks.push(body.slice(start, hyphen));
    start = hyphen + 1;
    hyphen = body.indexOf("-", hyphen + 3);
  }
  const tail = body.slice(start);
  if (tail.length > 0) chunks.push(tail);
  else chunks[chunks.length - 1].push("-");
  // Chunks are joined by range hyphens: drop the ranges whose ends are reversed.
  for (let k = chunks.length - 1; k > 0; k--) {
    const before = chunks[k - 1];
    if (codePoint(before[before.length - 1]) > codePoint(chunks[k][0])) {
      chunks[k - 1] = [...before.slice(0, -1), ...chunks[k].slice(1)];
      chunks.splice(k, 1);
    }
  }
  if (negated) chunks[0] = chunks[0].slice(1);
  const members = chunks
    .map((chunk) => chunk.join("").replace(/[\\\]\[^-]/g, "\\$&"))
    .join("-");
  if (members === "") return negated ? "[^/]" : "(?!)";
  return `(?!/)[${negated ? "^" : ""}${members}]`;
}

function codePoint(char: string): number {
  return char.codePointAt(0)!;
}

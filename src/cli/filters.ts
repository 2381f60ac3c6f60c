/**
 * `get --include P --exclude P`: glob patterns applied to the selected
 * files after the selection. A pattern with a `/` is matched against the
 * whole dataset path, one without against the file's base name, so that
 * `--include '*.nc'` keeps NetCDF files at any depth.
 *
 * @module
 */

import { compileGlob } from "../tree/glob.ts";
import { baseName } from "../tree/paths.ts";

/** Whether a selected path passes the filters. */
export type PathFilter = (path: string) => boolean;

/**
 * The filter of `includes` (a path must match one, when any are given)
 * and `excludes` (a path must match none). A malformed pattern is a
 * `TypeError` naming it.
 */
export function pathFilter(
  includes: readonly string[],
  excludes: readonly string[],
): PathFilter {
  const compile = (pattern: string) => {
    const glob = compileGlob(pattern);
    return pattern.includes("/")
      ? (path: string) => glob.matches(path)
      : (path: string) => glob.matches(baseName(path));
  };
  const kept = includes.map(compile);
  const dropped = excludes.map(compile);
  return (path) =>
    (kept.length === 0 || kept.some((test) => test(path))) &&
    !dropped.some((test) => test(path));
}

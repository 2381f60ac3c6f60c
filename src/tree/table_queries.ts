/**
 * `find` and `glob` over a routing table, as every tree answers them. The
 * arguments are checked before the table is needed, so that bad input
 * fails before any request.
 *
 * @module
 */

import { compileGlob } from "./glob.ts";
import { normalizePath } from "./paths.ts";
import type { RoutingTable } from "./routing_table.ts";

/** A question to a table, checked and ready to ask. */
export type TableQuery = (table: RoutingTable) => string[];

/** Paths below `path`, sorted, per the seed's find rules. */
export function findQuery(
  path: string,
  options: { maxdepth?: number | null; withdirs?: boolean },
): TableQuery {
  const key = normalizePath(path);
  const maxdepth = options.maxdepth ?? undefined;
  if (
    maxdepth !== undefined && (!Number.isInteger(maxdepth) || maxdepth < 1)
  ) {
    throw new TypeError(`maxdepth must be an integer >= 1, got ${maxdepth}`);
  }
  const withdirs = options.withdirs ?? false;
  return (table) => table.find(key, { maxdepth, withdirs });
}

/** Paths matching a glob pattern, sorted, with fsspec's rules. */
export function globQuery(pattern: string): TableQuery {
  const glob = compileGlob(pattern);
  return (table) => {
    if (glob.literal) {
      return table.get(glob.prefix) === undefined ? [] : [glob.prefix];
    }
    return table.find(glob.prefix, { maxdepth: glob.depth, withdirs: true })
      .filter((key) => glob.matches(key, table.get(key)!.type === "directory"));
  };
}

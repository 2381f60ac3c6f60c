/**
 * The listing commands: `ls`, `tree`, `find`, `glob`, `info` and
 * `datasets`. Each prints human-readable lines, or JSON with `--json`.
 *
 * @module
 */

import { listCollection } from "../repo_fs.ts";
import { type Browsable, datasetView } from "./archive_path.ts";
import { directoryTotals, entryJson } from "./entry_json.ts";
import { integerOption } from "./args.ts";
import type { Context } from "./context.ts";
import { infoLines, lsLines } from "./format.ts";
import { hdf5Lines, hdf5Listing } from "./hdf5_info.ts";
import { parquetLines, parquetSummary } from "./parquet_info.ts";
import { geotiffLines, geotiffSummary } from "./geotiff_info.ts";
import { displayPath } from "./io.ts";
import { nothingFound, orNothingFound } from "./nothing_found.ts";
import { drawTree, readTree } from "./tree.ts";
import { treeJson } from "./tree_json.ts";

/** `ls [PATH]`: the direct children of a directory (or the file itself). */
export async function ls(context: Context): Promise<number> {
  const fs = await datasetView(context);
  const path = context.arg(0) ?? "";
  const entries = await orNothingFound(fs, path, fs.ls(path));
  const long = context.line.values.long === true;
  if (context.json) await context.out.json(entries.map(entryJson));
  else await printLines(context, lsLines(entries, { long }));
  return 0;
}

/** `tree [PATH] [--maxdepth N]`: the tree drawn, or nested JSON. */
export async function tree(context: Context): Promise<number> {
  const maxdepth = integerOption(context.line, "maxdepth", { min: 1 });
  const fs = await datasetView(context);
  const path = context.arg(0) ?? "";
  const root = await orNothingFound(fs, path, readTree(fs, path, maxdepth));
  if (context.json) await context.out.print(treeJson(root));
  else await printLines(context, drawTree(root));
  return 0;
}

/** `find [PATH] [--maxdepth N] [--withdirs]`: paths below a directory. */
export async function find(context: Context): Promise<number> {
  const maxdepth = integerOption(context.line, "maxdepth", { min: 1 });
  const fs = await datasetView(context);
  const path = context.arg(0) ?? "";
  const paths = await fs.find(path, {
    maxdepth,
    withdirs: context.line.values.withdirs === true,
  });
  if (paths.length === 0 && !await fs.exists(path)) {
    throw await nothingFound(fs, path, "path");
  }
  await printPaths(context, fs, paths);
  return 0;
}

/** `glob PATTERN`: paths matching a pattern. */
export async function glob(context: Context): Promise<number> {
  const fs = await datasetView(context);
  const pattern = context.arg(0)!;
  const paths = await fs.glob(pattern);
  if (paths.length === 0) throw await nothingFound(fs, pattern, "pattern");
  await printPaths(context, fs, paths);
  return 0;
}

/** `info PATH`: what the listing says about a path. */
export async function info(context: Context): Promise<number> {
  const fs = await datasetView(context);
  const path = context.arg(0)!;
  const entry = await orNothingFound(fs, path, fs.info(path));
  const totals = entry.type === "directory"
    ? await directoryTotals(fs, path)
    : undefined;
  const hdf5 = await hdf5Listing(fs, entry);
  const parquet = await parquetSummary(fs, entry);
  const geotiff = await geotiffSummary(fs, entry);
  if (context.json) {
    await context.out.json({
      ...entryJson(entry),
      ...totals,
      ...hdf5,
      ...(parquet && { parquet }),
      ...(geotiff && { geotiff }),
    });
  } else {
    const lines = infoLines(entry, totals);
    if (hdf5) lines.push(...hdf5Lines(hdf5));
    if (parquet) lines.push(...parquetLines(parquet));
    if (geotiff) lines.push(...geotiffLines(geotiff));
    await printLines(context, lines);
  }
  return 0;
}

/**
 * `datasets ALIAS`: the items of a collection, one line each with the value
 * to pass as `--pid`; `--json` prints the items as the repository sent them.
 */
export async function datasets(context: Context): Promise<number> {
  const items = await listCollection({
    host: context.host(),
    alias: context.arg(0)!,
    token: await context.token(),
    ...context.names(),
    timeoutMs: context.timeoutMs(),
  });
  if (context.json) {
    await context.out.json(items);
    return 0;
  }
  await printLines(context, items.map(itemLine));
  return 0;
}

/** One collection item: its persistent id (or id), type and URL. */
function itemLine(item: unknown): string {
  const fields =
    (typeof item === "object" && item !== null ? item : {}) as Record<
      string,
      unknown
    >;
  const { protocol, authority, separator = "/", identifier } = fields;
  const pid =
    [protocol, authority, identifier].every((v) => typeof v === "string")
      ? `${protocol}:${authority}${separator}${identifier}`
      : `id ${fields.id ?? "?"}`;
  return [pid, fields.type, fields.persistentUrl ?? fields.title]
    .filter((part) => part !== undefined)
    .map((part) => displayPath(String(part)))
    .join("  ");
}

/** Paths, one a line, directories ending in `/` (not in JSON). */
async function printPaths(
  context: Context,
  fs: Browsable,
  paths: string[],
): Promise<void> {
  if (context.json) return await context.out.json(paths);
  const lines: string[] = [];
  for (const path of paths) {
    const dir = (await fs.info(path)).type === "directory";
    lines.push(`${displayPath(path)}${dir ? "/" : ""}`);
  }
  await printLines(context, lines);
}

async function printLines(context: Context, lines: string[]): Promise<void> {
  if (lines.length > 0) await context.out.print(lines.join("\n"));
}

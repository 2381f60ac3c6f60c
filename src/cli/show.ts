/**
 * The `show` command: the values inside a file, as CSV, JSON or an aligned
 * table: a slice of a variable of a NetCDF, HDF5 or Zarr array (through
 * `getArray`), columns and rows of a Parquet file, rows of a CSV or `.tab`
 * file, a window of a GeoTIFF's bands.
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import { readParquet } from "../formats/parquet/read_parquet.ts";
import { parquetFile } from "../formats/parquet/parquet_file.ts";
import { readFooter } from "../formats/parquet/footer.ts";
import { lines } from "../formats/text/lines.ts";
import { readRaster } from "../formats/geotiff/read_raster.ts";
import { type ArchiveView, datasetView } from "./archive_path.ts";
import { integerOption, stringOption, UsageError } from "./args.ts";
import { type Context, selectedPaths } from "./context.ts";
import { delimiterOf, splitFields } from "./delimited.ts";
import { orNothingFound } from "./nothing_found.ts";
import { type ArrayValues, arrayValues, MOST_UNASKED } from "./array_values.ts";
import {
  alignedLines,
  csvLines,
  jsonCell,
  type ShowFormat,
  type ValueTable,
} from "./value_table.ts";
import { parseSlice } from "./slice_spec.ts";
import { quotePath } from "./io.ts";

const ARRAY_FILES = /\.(nc|nc4|cdf|h5|hdf5|he5)$/i;
const PARQUET = /\.(parquet|pq)$/i;
const TEXT = /\.(csv|tsv|tab)$/i;
const TIFF = /\.(tiff?)$/i;

/**
 * `show PATH [--var NAME] [--slice S] [--columns A,B] [--rows A:B]
 * [--max-line-bytes N] [--format csv|json|table]`: CSV by default on a pipe, an aligned table
 * on a terminal, JSON with `--format json` or `--json`.
 */
export async function show(context: Context): Promise<number> {
  const format = showFormat(context);
  const view = await datasetView(context);
  const path = selectedPaths(context, "PATH")[0];
  const entry = await orNothingFound(view, path, view.info(path));
  const kind = kindOf(entry);
  checkOptions(context, kind, path);
  if (kind === "array") {
    const values = await arrayValues(view, entry, {
      variable: stringOption(context.line, "var"),
      slice: stringOption(context.line, "slice"),
    });
    return await printArray(context, values, format);
  }
  const table = kind === "parquet"
    ? await parquetTable(view, path, context)
    : kind === "tiff"
    ? await tiffTable(view, path, context)
    : await textTable(view, path, context);
  if (format === "json") {
    await context.out.json(
      table.rows.map((row) =>
        Object.fromEntries(table.columns.map((c, i) => [c, jsonCell(row[i])]))
      ),
    );
  } else await printTable(context, table, format);
  return 0;
}

type Kind = "array" | "parquet" | "text" | "tiff";

/** What `entry` holds, by its name (a directory is a Zarr hierarchy). */
function kindOf(entry: FileInfo): Kind {
  if (entry.type === "directory" || ARRAY_FILES.test(entry.name)) {
    return "array";
  }
  if (PARQUET.test(entry.name)) return "parquet";
  if (TEXT.test(entry.name)) return "text";
  if (TIFF.test(entry.name)) return "tiff";
  throw new Error(
    `show: ${
      quotePath(entry.name)
    } is not a file show reads (NetCDF, HDF5, Zarr, Parquet, CSV, .tab, .tsv, GeoTIFF); see cat`,
  );
}

const APPLIES: Record<string, Kind[]> = {
  var: ["array"],
  slice: ["array", "tiff"],
  columns: ["parquet", "text"],
  rows: ["parquet", "text"],
  "max-line-bytes": ["text"],
};

/** A usage error for an option that does not apply to this kind of file. */
function checkOptions(context: Context, kind: Kind, path: string): void {
  for (const [name, kinds] of Object.entries(APPLIES)) {
    if (context.line.values[name] !== undefined && !kinds.includes(kind)) {
      const what = kind === "array"
        ? "an array (use --var and --slice)"
        : kind === "tiff"
        ? "a GeoTIFF (use --slice ROWS,COLUMNS)"
        : "a table (use --columns and --rows)";
      throw new UsageError(
        `--${name} does not apply to ${quotePath(path)}, ${what}`,
        "show",
      );
    }
  }
}

/** `--format`, else JSON with `--json`, a table on a terminal, CSV on a pipe. */
function showFormat(context: Context): ShowFormat {
  const format = stringOption(context.line, "format");
  if (format === undefined) {
    return context.json ? "json" : Deno.stdout.isTerminal() ? "table" : "csv";
  }
  if (format !== "csv" && format !== "json" && format !== "table") {
    throw new UsageError(
      `--format must be csv, json or table, got ${JSON.stringify(format)}`,
      "show",
    );
  }
  return format;
}

/** `--rows A:B` (`A:`, `:B`, `N`) as a start and an end (exclusive). */
function rowRange(context: Context): { start: number; end?: number } {
  const text = stringOption(context.line, "rows");
  if (text === undefined) return { start: 0 };
  const match = text.match(/^(\d*):(\d*)$|^(\d+)$/);
  if (match === null) {
    throw new Error(
      `--rows ${
        JSON.stringify(text)
      }: expected START:STOP, START:, :STOP or N (0-based, STOP exclusive)`,
    );
  }
  if (match[3] !== undefined) {
    return { start: Number(match[3]), end: Number(match[3]) + 1 };
  }
  return {
    start: match[1] === "" ? 0 : Number(match[1]),
    end: match[2] === "" ? undefined : Number(match[2]),
  };
}

/** `--columns A,B`, or `undefined` for all. */
function columnList(context: Context): string[] | undefined {
  return stringOption(context.line, "columns")?.split(",").map((c) => c.trim());
}

async function parquetTable(
  view: ArchiveView,
  path: string,
  context: Context,
): Promise<ValueTable> {
  const columns = columnList(context);
  const { start, end } = rowRange(context);
  if (stringOption(context.line, "rows") === undefined) {
    const { metadata } = await readFooter(await parquetFile(view, path), path);
    const count = Number(metadata.num_rows);
    if (count > MOST_UNASKED) {
      throw new Error(
        `show: ${
          quotePath(path)
        } has ${count} rows: pick some with --rows (--rows 0: for all)`,
      );
    }
  }
  const rows = await readParquet(view, path, {
    columns,
    rowStart: start,
    rowEnd: end,
  });
  const names = columns ?? Object.keys(rows[0] ?? {});
  return { columns: names, rows: rows.map((row) => names.map((c) => row[c])) };
}

/**
 * Rows of a CSV or tab-separated file: its first line names the columns;
 * a line longer than `--max-line-bytes` (default 64 MiB) is refused.
 */
async function textTable(
  view: ArchiveView,
  path: string,
  context: Context,
): Promise<ValueTable> {
  const delimiter = delimiterOf(path);
  const { start, end = Infinity } = rowRange(context);
  const asked = columnList(context);
  let header: string[] | undefined;
  let picks: number[] = [];
  const rows: unknown[][] = [];
  let row = 0;
  const maxLineBytes = integerOption(context.line, "max-line-bytes", {
    min: 1,
  });
  for await (const line of lines(view, path, { maxLineBytes })) {
    const fields = splitFields(line.replace(/\r$/, ""), delimiter);
    if (header === undefined) {
      header = fields;
      picks = (asked ?? header).map((name) => {
        const at = header!.indexOf(name);
        if (at < 0) {
          throw new Error(
            `${quotePath(path)} has no column ${JSON.stringify(name)} (it has ${
              header!.join(", ")
            })`,
          );
        }
        return at;
      });
      continue;
    }
    if (row >= end) break;
    if (row++ >= start) rows.push(picks.map((i) => fields[i] ?? null));
  }
  return { columns: picks.map((i) => header![i]), rows };
}

/** A window of a GeoTIFF's full-resolution image: one row per pixel, one column per band. */
async function tiffTable(
  view: ArchiveView,
  path: string,
  context: Context,
): Promise<ValueTable> {
  const { geotiff } = await import("../formats/geotiff/open_geotiff.ts");
  const image = await (await geotiff(view, path)).getImage(0);
  const { kept } = parseSlice(
    stringOption(context.line, "slice"),
    [image.getHeight(), image.getWidth()],
    ["row", "column"],
  );
  const [rows, columns] = kept;
  if (kept.length !== 2 || [rows, columns].some(stepped)) {
    throw new Error(
      `--slice ${
        JSON.stringify(stringOption(context.line, "slice"))
      }: a GeoTIFF takes two ranges of step 1, ROWS,COLUMNS (0:10,5:20)`,
    );
  }
  const raster = await readRaster(view, path, {
    window: [
      columns.indices[0],
      rows.indices[0],
      columns.indices.at(-1)! + 1,
      rows.indices.at(-1)! + 1,
    ],
  });
  const table: ValueTable = {
    columns: ["row", "column", ...raster.data.map((_, i) => `band_${i + 1}`)],
    rows: [],
  };
  let at = 0;
  for (const r of rows.indices) {
    for (const c of columns.indices) {
      table.rows.push([r, c, ...raster.data.map((band) => band[at])]);
      at++;
    }
  }
  return table;
}

function stepped(axis: { indices: number[] }): boolean {
  return axis.indices.some((v, i) => i > 0 && v !== axis.indices[i - 1] + 1);
}

async function printArray(
  context: Context,
  values: ArrayValues,
  format: ShowFormat,
): Promise<number> {
  if (format === "json") {
    await context.out.json({
      variable: values.variable,
      dimensions: values.kept.map((axis) => axis.name),
      shape: values.kept.map((axis) => axis.indices.length),
      indices: Object.fromEntries(
        values.kept.map((axis) => [axis.name, axis.indices]),
      ),
      values: values.nested(),
    });
    return 0;
  }
  await printTable(context, values.table(), format, values.float32);
  return 0;
}

async function printTable(
  context: Context,
  table: ValueTable,
  format: Exclude<ShowFormat, "json">,
  float32 = false,
): Promise<void> {
  const text = format === "csv"
    ? csvLines(table, float32)
    : alignedLines(table, float32);
  await context.out.print(text.join("\n"));
}

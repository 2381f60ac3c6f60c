/**
 * What `info` adds for a file named as Parquet (`.parquet`, `.pq`): its
 * rows, row groups and columns with their types, from the footer alone.
 *
 * @module
 */

import { parquetMetadata, parquetSchema } from "hyparquet";
import type { FileInfo } from "../base/types.ts";
import { FormatError } from "../base/format_error.ts";
import type { ByteSource } from "../formats/source.ts";
import { ownBuffer, parquetFile } from "../formats/parquet/parquet_file.ts";
import { readFooter } from "../formats/parquet/footer.ts";
import { displayPath } from "./io.ts";

const NAMES = /\.(parquet|pq)$/i;

/** One column: its name, its type and whether it may hold nulls. */
export interface ParquetColumn {
  /** The top-level column name. */
  name: string;
  /** The logical type where the file gives one (`STRING`, `DATE`), else the physical. */
  type: string;
  /** The physical type (`INT64`, `BYTE_ARRAY`); absent for a nested column. */
  physicalType?: string;
  /** Whether the column is optional (may hold nulls). */
  nullable: boolean;
}

/** A Parquet file's shape, or why it could not be read. */
export interface ParquetSummary {
  /** Rows in all. */
  rows: number;
  /** Rows of each row group, in file order. */
  rowGroups: number[];
  /** The top-level columns, in file order. */
  columns: ParquetColumn[];
}

/**
 * The summary of `entry` when it is named as a Parquet file, `undefined`
 * for any other entry; a file that is not readable Parquet gives its
 * problem instead.
 */
export async function parquetSummary(
  source: ByteSource,
  entry: FileInfo,
): Promise<ParquetSummary | { problem: string } | undefined> {
  if (entry.type !== "file" || !NAMES.test(entry.name)) return undefined;
  let metadata;
  try {
    const { bytes } = await readFooter(
      await parquetFile(source, entry.name),
      entry.name,
    );
    // The annotations as written, not as the reader decodes them (ENUM, JSON: UTF8).
    metadata = parquetMetadata(ownBuffer(bytes));
  } catch (error) {
    if (error instanceof FormatError) return { problem: error.message };
    throw error;
  }
  const columns = parquetSchema(metadata).children.map(({ element }) => {
    const logical = element.logical_type?.type ?? element.converted_type;
    return {
      name: element.name,
      type: logical ?? element.type ?? "GROUP",
      ...(element.type ? { physicalType: element.type } : {}),
      nullable: element.repetition_type !== "REQUIRED",
    };
  });
  return {
    rows: Number(metadata.num_rows),
    rowGroups: metadata.row_groups.map((group) => Number(group.num_rows)),
    columns,
  };
}

/** `info`'s lines for a Parquet file. */
export function parquetLines(
  summary: ParquetSummary | { problem: string },
): string[] {
  if ("problem" in summary) return [`not readable: ${summary.problem}`];
  const { rows, rowGroups, columns } = summary;
  const groups = rowGroups.length === 1
    ? "1 row group"
    : `${rowGroups.length} row groups`;
  const width = Math.max(...columns.map((c) => displayPath(c.name).length));
  return [
    `${rows} rows in ${groups} (${rowGroups.join(", ")} rows)`,
    `${columns.length} columns:`,
    ...columns.map((c) =>
      `  ${displayPath(c.name).padEnd(width)}  ${c.type}${
        c.physicalType && c.physicalType !== c.type
          ? ` (${c.physicalType})`
          : ""
      }${c.nullable ? "" : " not null"}`
    ),
  ];
}

/**
 * Which column chunks of which row groups a read needs, checked against
 * the schema and the file before anything is fetched.
 *
 * @module
 */

import type { ColumnMetaData, FileMetaData, SchemaTree } from "hyparquet";
import { parquetSchema } from "hyparquet";
import { getPhysicalColumns } from "hyparquet/src/schema.js";
import { ParquetFormatError } from "./parquet_format_error.ts";

/** One column chunk to fetch: its metadata and its bytes in the file. */
export interface ChunkPart {
  /** The chunk's column metadata. */
  meta: ColumnMetaData;
  /** Its dotted path in the schema. */
  column: string;
  /** First byte in the file. */
  start: number;
  /** Byte after its last. */
  end: number;
}

/** One row group's share of a read. */
export interface GroupPart {
  /** The row group's index in the file. */
  index: number;
  /** The file row of its first row. */
  groupStart: number;
  /** Its number of rows. */
  groupRows: number;
  /** First row wanted, counted in the group. */
  selectStart: number;
  /** Row after the last wanted, counted in the group. */
  selectEnd: number;
  /** The chunks of the asked columns, in file column order. */
  chunks: ChunkPart[];
}

/** What a read asks for: top-level columns and file rows. */
export interface ReadRequest {
  /** The columns to read (top-level names); all when absent. */
  columns?: string[];
  /** First row, inclusive. */
  rowStart: number;
  /** Last row, exclusive. */
  rowEnd: number;
}

/**
 * The row groups holding rows `rowStart`..`rowEnd`, each with the chunks of
 * the asked columns. Refuses a column the file lacks, row counts that do
 * not add up, a row group whose chunks are not the schema's columns in
 * order, a chunk of a column of one value per row that declares another
 * number of values than its row group has rows (which bounds what its
 * pages may declare), and a chunk that lies outside the file's data
 * (`dataEnd`: where the footer starts).
 */
export function planRead(
  metadata: FileMetaData,
  request: ReadRequest,
  path: string,
  dataEnd: number,
): GroupPart[] {
  const schema = parquetSchema(metadata);
  checkColumns(schema, request.columns, path);
  const leaves = getPhysicalColumns(schema);
  const flat = new Set(
    schema.children
      .filter((c) => !c.children.length)
      .filter((c) => c.element.repetition_type !== "REPEATED")
      .map((c) => c.element.name),
  );
  const parts: GroupPart[] = [];
  let groupStart = 0;
  metadata.row_groups.forEach((group, index) => {
    const groupRows = Number(group.num_rows);
    if (!(groupRows >= 0)) {
      throw new ParquetFormatError(path, `it declares ${groupRows} rows`, {
        rowGroup: index,
      });
    }
    const selectStart = Math.max(request.rowStart - groupStart, 0);
    const selectEnd = Math.min(request.rowEnd - groupStart, groupRows);
    if (selectStart < selectEnd) {
      parts.push({
        index,
        groupStart,
        groupRows,
        selectStart,
        selectEnd,
        chunks: groupChunks(group.columns, leaves, request.columns, {
          path,
          index,
          dataEnd,
          flat,
          groupRows,
        }),
      });
    }
    groupStart += groupRows;
  });
  if (groupStart !== Number(metadata.num_rows)) {
    throw new ParquetFormatError(
      path,
      `its row groups hold ${groupStart} rows where its footer says ${metadata.num_rows}`,
    );
  }
  return parts;
}

function groupChunks(
  chunks: FileMetaData["row_groups"][number]["columns"],
  leaves: string[],
  columns: string[] | undefined,
  where: {
    path: string;
    index: number;
    dataEnd: number;
    /** The columns of one value per row: not nested, not repeated. */
    flat: Set<string>;
    groupRows: number;
  },
): ChunkPart[] {
  const { path, index: rowGroup, dataEnd, flat, groupRows } = where;
  if (chunks.length !== leaves.length) {
    throw new ParquetFormatError(
      path,
      `it has ${chunks.length} column chunks for the ${leaves.length} columns of its schema`,
      { rowGroup },
    );
  }
  const parts: ChunkPart[] = [];
  chunks.forEach((chunk, i) => {
    const column = leaves[i];
    const meta = chunk.meta_data;
    const fail = (problem: string) =>
      new ParquetFormatError(path, problem, { column, rowGroup });
    if (chunk.file_path !== undefined) {
      throw fail(`its data is in another file, "${chunk.file_path}"`);
    }
    if (meta === undefined) throw fail("its column chunk has no metadata");
    if (meta.path_in_schema.join(".") !== column) {
      throw fail(
        `its column chunk is for "${meta.path_in_schema.join(".")}"`,
      );
    }
    if (columns && !columns.includes(meta.path_in_schema[0])) return;
    const start = Number(meta.dictionary_page_offset || meta.data_page_offset);
    const end = start + Number(meta.total_compressed_size);
    if (!(4 <= start && start <= end && end <= dataEnd)) {
      throw fail(
        `its column chunk (bytes ${start}..${end}) lies outside the data (bytes 4..${dataEnd})`,
      );
    }
    if (flat.has(column) && Number(meta.num_values) !== groupRows) {
      throw fail(
        `its column chunk declares ${meta.num_values} values for the ${groupRows} rows of its row group`,
      );
    }
    parts.push({ meta, column, start, end });
  });
  return parts;
}

/** Refuses a column the file does not have, naming those it has. */
function checkColumns(
  schema: SchemaTree,
  columns: string[] | undefined,
  path: string,
): void {
  const names = new Set(schema.children.map((c) => c.element.name));
  const missing = columns?.find((column) => !names.has(column));
  if (missing !== undefined) {
    throw new ParquetFormatError(
      path,
      `it has no column "${missing}" (it has ${[...names].join(", ")})`,
      { column: missing },
    );
  }
}

/**
 * One row group's fetched column chunks decoded by hyparquet, each checked
 * first, each failure named with its column and row group.
 *
 * @module
 */

import type {
  AsyncRowGroup,
  Compressors,
  DecodedArray,
  FileMetaData,
} from "hyparquet";
import { parquetSchema } from "hyparquet";
import { compressors, decompressZstd } from "hyparquet-compressors";
import { readColumn } from "hyparquet/src/column.js";
import { getTreePath } from "hyparquet/src/schema.js";
import { assembleAsync } from "hyparquet/src/rowgroup.js";
import { decimals, PARSERS, rawElement } from "./column_types.ts";
import { columnValues } from "./columns.ts";
import { impossiblePage } from "./page_check.ts";
import type { ParquetColumns } from "./parquet_parts.ts";
import { ParquetFormatError } from "./parquet_format_error.ts";
import type { GroupPart } from "./read_plan.ts";

/** A page that its codec could not inflate to the size its header declares. */
class PageInflateError extends Error {}

/**
 * Every codec, each writing into the page's declared size and no further
 * (fzstd alone would grow to what the stream says), its failure named.
 */
const BOUNDED: Compressors = Object.fromEntries(
  Object.entries({
    ...compressors,
    ZSTD: (input: Uint8Array, length: number) =>
      decompressZstd(input, new Uint8Array(length)),
  }).map(([codec, inflate]) => [codec, (input: Uint8Array, length: number) => {
    try {
      return inflate(input, length);
    } catch (error) {
      throw new PageInflateError(
        `a ${codec} page does not inflate to its declared ${length} bytes (${
          error instanceof Error ? error.message : error
        })`,
        { cause: error },
      );
    }
  }]),
);

/**
 * The asked rows of row group `part`, one array per top-level column in
 * file order, from its chunks' bytes (`bytes[i]` for `part.chunks[i]`).
 * A chunk with an impossible page, a value hyparquet cannot decode, or a
 * column that does not hold the asked rows fails with
 * {@linkcode ParquetFormatError} naming the column and row group.
 */
export async function decodeGroup(
  path: string,
  metadata: FileMetaData,
  part: GroupPart,
  bytes: Uint8Array[],
): Promise<ParquetColumns> {
  const schema = parquetSchema(metadata);
  const rowGroup = part.index;
  const asyncColumns = part.chunks.map((chunk, i) => {
    const { meta, column } = chunk;
    const schemaPath = getTreePath(schema, meta.path_in_schema);
    const element = schemaPath[schemaPath.length - 1].element;
    const problem = impossiblePage(bytes[i], meta, element.type_length);
    if (problem !== undefined) {
      throw new ParquetFormatError(path, problem, { column, rowGroup });
    }
    const view = new DataView(
      bytes[i].buffer,
      bytes[i].byteOffset,
      bytes[i].byteLength,
    );
    try {
      const decoded = readColumn({ view, offset: 0 }, part, {
        pathInSchema: meta.path_in_schema,
        type: meta.type,
        element: rawElement(element),
        schemaPath,
        codec: meta.codec,
        parsers: PARSERS,
        compressors: BOUNDED,
        utf8: false,
      });
      decoded.data = decoded.data.map((page) => decimals(element, page));
      return {
        pathInSchema: meta.path_in_schema,
        data: Promise.resolve(decoded),
      };
    } catch (error) {
      throw decodeError(path, error, { column, rowGroup });
    }
  });
  const assembled = assembleAsync(
    { ...part, asyncColumns } as AsyncRowGroup,
    schema,
    PARSERS,
  );
  // Every nested column's assembly settles before the first failure is thrown.
  await Promise.allSettled(assembled.asyncColumns.map((c) => c.data));
  const columns: ParquetColumns = {};
  for (const { pathInSchema, data } of assembled.asyncColumns) {
    const column = pathInSchema[0];
    let pages: DecodedArray[];
    let skipped: number;
    try {
      ({ data: pages, skipped } = await data);
    } catch (error) {
      throw decodeError(path, error, { column, rowGroup });
    }
    const count = pages.reduce((sum, page) => sum + page.length, 0);
    const { selectStart, selectEnd, groupRows } = part;
    if (
      skipped > selectStart || skipped + count < selectEnd ||
      skipped + count > groupRows
    ) {
      throw new ParquetFormatError(
        path,
        `its values cover rows ${skipped}..${
          skipped + count
        } of a row group of ${groupRows} rows`,
        { column, rowGroup },
      );
    }
    const element = schema.children.find((c) => c.element.name === column)!
      .element;
    columns[column] = columnValues(
      element,
      pages,
      selectStart - skipped,
      selectEnd - skipped,
    );
  }
  return columns;
}

/** hyparquet's failure on a chunk as a {@linkcode ParquetFormatError} with it as cause. */
function decodeError(
  path: string,
  error: unknown,
  where: { column: string; rowGroup: number },
): ParquetFormatError {
  if (error instanceof ParquetFormatError) return error;
  if (error instanceof PageInflateError) {
    return new ParquetFormatError(path, error.message, {
      ...where,
      cause: error.cause,
    });
  }
  const text = error instanceof Error ? error.message : String(error);
  const problem = /encoded data|utf-8/i.test(text)
    ? `a text value is not UTF-8 (${text})`
    : /INT96|a Date holds/.test(text)
    ? text
    : `its values do not decode (${text})`;
  return new ParquetFormatError(path, problem, { ...where, cause: error });
}

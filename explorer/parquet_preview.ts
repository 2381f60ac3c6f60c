/**
 * A Parquet file: its schema, row count and row groups from the footer,
 * and its rows a page at a time (each page reads only the column chunks of
 * the row groups it spans).
 *
 * @module
 */

/// <reference lib="dom" />

import { parquetMetadataAsync } from "hyparquet";
import { parquetFile, readParquet } from "../parquet.ts";
import type { ByteSource } from "../zip.ts";
import { cellText, el, table } from "./dom.ts";

/** The first read of the footer: the tail that holds most files' footers. */
const FOOTER_GUESS = 64 * 1024;

/** Rows in a page. */
const PAGE_ROWS = 50;

/** The schema, the row groups, and the first page of rows with paging. */
export async function showParquet(
  view: HTMLElement,
  source: ByteSource,
  path: string,
): Promise<void> {
  const metadata = await parquetMetadataAsync(await parquetFile(source, path), {
    initialFetchSize: FOOTER_GUESS,
  });
  const rowCount = Number(metadata.num_rows);
  const columns = metadata.schema.slice(1).map((element) => [
    element.name,
    element.type ?? "group",
    element.logical_type?.type ?? element.converted_type ?? "",
    element.repetition_type ?? "",
  ]);
  const groups = metadata.row_groups.map((group, i) => [
    String(i),
    String(group.num_rows),
    String(group.total_byte_size),
  ]);
  const rowsView = el("div", { class: "table-wrap" });
  const previous = el("button", { type: "button" }, "Previous rows");
  const next = el("button", { type: "button" }, "Next rows");
  const where = el("span", {});
  let start = 0;
  const page = async () => {
    previous.disabled = next.disabled = true;
    const end = Math.min(rowCount, start + PAGE_ROWS);
    const rows = await readParquet(source, path, {
      rowStart: start,
      rowEnd: end,
    });
    const names = rows.length > 0 ? Object.keys(rows[0]) : [];
    rowsView.replaceChildren(
      table(names, rows.map((row) => names.map((n) => cellText(row[n])))),
    );
    where.textContent = ` rows ${start}–${end - 1} of ${rowCount} `;
    previous.disabled = start === 0;
    next.disabled = end >= rowCount;
  };
  previous.addEventListener("click", () => {
    start = Math.max(0, start - PAGE_ROWS);
    void page();
  });
  next.addEventListener("click", () => {
    start += PAGE_ROWS;
    void page();
  });
  view.replaceChildren(
    el("p", {}, `${rowCount} rows in ${groups.length} row groups`),
    el("h3", {}, "Schema"),
    table(["column", "type", "logical type", "repetition"], columns),
    el("h3", {}, "Row groups"),
    table(["row group", "rows", "bytes"], groups),
    el("h3", {}, "Rows"),
    el("div", { class: "pager" }, previous, where, next),
    rowsView,
  );
  await page();
}

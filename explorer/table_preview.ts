/**
 * Text and delimited tables: the first lines (the last on request), read
 * by range through the text reader.
 *
 * @module
 */

/// <reference lib="dom" />

import { head, tail } from "../text.ts";
import type { ByteSource } from "../zip.ts";
import { delimiterOf } from "./file_kind.ts";
import { splitLine } from "./csv_line.ts";
import { el, table } from "./dom.ts";

/** Lines shown of a text file or table. */
const LINES = 100;

/** The first lines of a table file as a table, with a button for the last. */
export async function showTable(
  view: HTMLElement,
  source: ByteSource,
  path: string,
): Promise<void> {
  const delimiter = delimiterOf(path);
  const draw = (lines: string[], header: string[], from: string) => {
    const rows = lines.map((line) => splitLine(line, delimiter));
    const width = Math.max(header.length, ...rows.map((r) => r.length));
    const names = Array.from({ length: width }, (_, i) => header[i] ?? "");
    return el(
      "div",
      { class: "table-wrap" },
      el("p", {}, from),
      table(names, rows),
    );
  };
  const first = await head(source, path, LINES + 1);
  const header = first.length > 0 ? splitLine(first[0], delimiter) : [];
  const button = el(
    "button",
    { type: "button" },
    `Show the last ${LINES} rows`,
  );
  const shown = draw(
    first.slice(1),
    header,
    `The first ${first.length - 1} rows`,
  );
  view.replaceChildren(button, shown);
  button.addEventListener("click", async () => {
    button.disabled = true;
    const last = await tail(source, path, LINES);
    view.append(draw(last, header, `The last ${last.length} rows`));
  });
}

/** The first lines of a text file. */
export async function showText(
  view: HTMLElement,
  source: ByteSource,
  path: string,
): Promise<void> {
  const lines = await head(source, path, LINES);
  view.replaceChildren(el("pre", { class: "text" }, lines.join("\n")));
}

/**
 * `show`'s output: a table of values (named columns, rows of cells) as CSV,
 * as JSON, or aligned for a terminal.
 *
 * @module
 */

/** Named columns and their rows, one cell per column. */
export interface ValueTable {
  /** The column names. */
  columns: string[];
  /** The rows, each as long as `columns`. */
  rows: unknown[][];
}

/** How `show` writes its values. */
export type ShowFormat = "csv" | "json" | "table";

/**
 * A cell as text: numbers as JavaScript writes them (a `float32` by its
 * shortest decimal, as NumPy prints it), big integers in full, dates in ISO
 * form, bytes in hexadecimal, `null` and `undefined` empty, anything else as
 * JSON.
 */
export function cellText(value: unknown, float32 = false): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") {
    return float32 ? shortestFloat32(value) : String(value);
  }
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "boolean") {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return hex(value);
  return JSON.stringify(
    value,
    (_key, v) => typeof v === "bigint" ? String(v) : v,
  );
}

/**
 * A cell as JSON holds it: a big integer as a number when exact, else as
 * a string; a `float32` by its shortest decimal; a date in ISO form; bytes
 * in hexadecimal.
 */
export function jsonCell(value: unknown, float32 = false): unknown {
  if (typeof value === "bigint") {
    return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  }
  if (typeof value === "number" && float32 && Number.isFinite(value)) {
    return Number(shortestFloat32(value));
  }
  if (typeof value === "number" && !Number.isFinite(value)) {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return hex(value);
  return value;
}

/** Bytes as lowercase hexadecimal, two digits each. */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The shortest decimal that reads back as the same `float32`. */
function shortestFloat32(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  for (let digits = 1; digits < 9; digits++) {
    const text = value.toPrecision(digits);
    if (Math.fround(Number(text)) === value) return String(Number(text));
  }
  return String(Number(value.toPrecision(9)));
}

/** A CSV field, quoted when it holds a comma, quote, line break or edge space. */
function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text)
    ? `"${text.replaceAll('"', '""')}"`
    : text;
}

/** The table as CSV lines: the header, then one line per row. */
export function csvLines(table: ValueTable, float32 = false): string[] {
  return [
    table.columns.map(csvField).join(","),
    ...table.rows.map((row) =>
      row.map((cell) => csvField(cellText(cell, float32))).join(",")
    ),
  ];
}

/**
 * The table aligned in columns for a terminal: numbers to the right, other
 * text to the left, control characters escaped.
 */
export function alignedLines(table: ValueTable, float32 = false): string[] {
  const cells = table.rows.map((row) =>
    row.map((cell) => visible(cellText(cell, float32)))
  );
  const header = table.columns.map(visible);
  const widths = header.map((name, i) =>
    Math.max(name.length, ...cells.map((row) => row[i].length))
  );
  const numeric = table.columns.map((_, i) =>
    table.rows.every((row) =>
      typeof row[i] === "number" || typeof row[i] === "bigint" ||
      row[i] === null || row[i] === undefined
    )
  );
  const line = (row: string[]) =>
    row.map((text, i) =>
      numeric[i] ? text.padStart(widths[i]) : text.padEnd(widths[i])
    ).join("  ").trimEnd();
  return [line(header), ...cells.map(line)];
}

/** Text with control characters shown as `\u` escapes. */
function visible(text: string): string {
  return text.replace(
    /[\p{Cc}\p{Bidi_Control}]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

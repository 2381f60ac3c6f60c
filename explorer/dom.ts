/**
 * Small builders for the page's elements.
 *
 * @module
 */

/// <reference lib="dom" />

/** An element with attributes and children (strings become text). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, value);
  }
  element.append(...children);
  return element;
}

/** A table with a header row and body rows of text cells. */
export function table(header: string[], rows: string[][]): HTMLTableElement {
  return el(
    "table",
    {},
    el(
      "thead",
      {},
      el("tr", {}, ...header.map((h) => el("th", { scope: "col" }, h))),
    ),
    el(
      "tbody",
      {},
      ...rows.map((row) =>
        el("tr", {}, ...row.map((cell) => el("td", {}, cell)))
      ),
    ),
  );
}

/** A value of a file as a cell's text: bytes in hex, dates in ISO form. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Uint8Array) {
    return [...value.subarray(0, 32)].map((b) =>
      b.toString(16).padStart(2, "0")
    ).join("") +
      (value.length > 32 ? "…" : "");
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "object") {
    return JSON.stringify(
      value,
      (_, v) => typeof v === "bigint" ? v.toString() : v,
    );
  }
  return String(value);
}

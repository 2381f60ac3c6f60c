/**
 * Human-readable output: sizes, durations, rates, `ls` lines and `info`
 * blocks. JSON output does not come through here.
 *
 * @module
 */

import type { FileInfo } from "../types.ts";
import { displayPath } from "./io.ts";

const UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB"];

/**
 * A byte count for people: `512 B`, `1.5 KiB`, `12.0 MiB`; `?` when unknown.
 *
 * @example
 * ```ts
 * import { formatSize } from "./format.ts";
 * formatSize(512); // "512 B"
 * formatSize(1536); // "1.5 KiB"
 * formatSize(null); // "?"
 * ```
 */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return "?";
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * Seconds as `m:ss` (or `h:mm:ss` from an hour on).
 *
 * @example
 * ```ts
 * import { formatDuration } from "./format.ts";
 * formatDuration(65); // "1:05"
 * formatDuration(3725); // "1:02:05"
 * ```
 */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * `ls` output: one line per entry, the size right-aligned (`-` for a
 * directory), then the full dataset path, directories ending in `/`.
 *
 * @example
 * ```ts
 * import { lsLines } from "./format.ts";
 * lsLines([
 *   { name: "data", type: "directory", size: 0 },
 *   { name: "README.md", type: "file", size: 18 },
 * ]); // ["     -  data/", "  18 B  README.md"]
 * ```
 */
export function lsLines(entries: readonly FileInfo[]): string[] {
  const sizes = entries.map((e) =>
    e.type === "directory" ? "-" : formatSize(e.size)
  );
  const width = Math.max(6, ...sizes.map((s) => s.length));
  return entries.map((entry, i) =>
    `${sizes[i].padStart(width)}  ${displayPath(entry.name)}${
      entry.type === "directory" ? "/" : ""
    }`
  );
}

/**
 * `info` output: one `field: value` line per field the entry has.
 *
 * @example
 * ```ts
 * import { infoLines } from "./format.ts";
 * infoLines({ name: "a.txt", type: "file", size: 2048, id: 7 });
 * // ["name:         a.txt", "type:         file", "size:         2048 (2.0 KiB)", "id:           7"]
 * ```
 */
export function infoLines(info: FileInfo): string[] {
  const rows: [string, string][] = [
    ["name", info.name === "" ? "(dataset root)" : displayPath(info.name)],
    ["type", info.type],
  ];
  if (info.type === "file") {
    rows.push([
      "size",
      info.size === null
        ? "not listed"
        : info.size < 1024
        ? String(info.size)
        : `${info.size} (${formatSize(info.size)})`,
    ]);
  }
  if (info.id !== undefined) rows.push(["id", String(info.id)]);
  if (info.contentType !== undefined) {
    rows.push(["content type", info.contentType]);
  }
  if (info.md5 !== undefined) rows.push(["md5", info.md5]);
  return rows.map(([field, value]) => `${`${field}:`.padEnd(14)}${value}`);
}

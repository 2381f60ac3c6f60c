/**
 * Human-readable output: sizes, durations, rates, `ls` lines and `info`
 * blocks. JSON output does not come through here.
 *
 * @module
 */

import { listedChecksum } from "../base/checksum.ts";
import type { FileInfo } from "../base/types.ts";
import { displayPath } from "./io.ts";

const UNITS = ["KiB", "MiB", "GiB", "TiB", "PiB"];

/**
 * A byte count for people: `512 B`, `1.5 KiB`, `12.0 MiB`; `?` when unknown.
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

/** Seconds as `m:ss` (or `h:mm:ss` from an hour on). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Why a file may not be readable: `restricted`, or `embargoed until
 * <date>`; `undefined` for a file anyone may read.
 */
export function accessNote(info: FileInfo): string | undefined {
  if (info.embargoedUntil !== undefined) {
    return `embargoed until ${info.embargoedUntil}`;
  }
  return info.restricted ? "restricted" : undefined;
}

/**
 * `ls` output: one line per entry, the size right-aligned (`-` for a
 * directory), with `long` the type and the listed checksum (`-` when
 * none), then the full dataset path, directories ending in `/`, and for a
 * restricted or embargoed file its {@linkcode accessNote}.
 */
export function lsLines(
  entries: readonly FileInfo[],
  { long = false } = {},
): string[] {
  const sizes = entries.map((e) =>
    e.type === "directory" ? "-" : formatSize(e.size)
  );
  const width = Math.max(6, ...sizes.map((s) => s.length));
  const sums = entries.map((e) => {
    const checksum = listedChecksum(e);
    return checksum === undefined ? "-" : `${checksum.type}:${checksum.value}`;
  });
  const sumWidth = Math.max(...sums.map((s) => s.length));
  return entries.map((entry, i) => {
    const note = accessNote(entry);
    const details = long
      ? `${entry.type.padEnd(9)}  ${sums[i].padEnd(sumWidth)}  `
      : "";
    return `${sizes[i].padStart(width)}  ${details}${displayPath(entry.name)}${
      entry.type === "directory" ? "/" : ""
    }${note === undefined ? "" : `  (${note})`}`;
  });
}

/**
 * `info` output: one `field: value` line per field the entry has; for a
 * directory, its `totals` (files below it and their bytes).
 */
export function infoLines(
  info: FileInfo,
  totals?: { files: number; bytes: number },
): string[] {
  const rows: [string, string][] = [
    ["name", info.name === "" ? "(dataset root)" : displayPath(info.name)],
    ["type", info.type],
  ];
  if (totals !== undefined) {
    rows.push(["files", String(totals.files)], [
      "bytes",
      byteCount(totals.bytes),
    ]);
  }
  if (info.type === "file") {
    rows.push([
      "size",
      info.size === null ? "not listed" : byteCount(info.size),
    ]);
  }
  if (info.id !== undefined) rows.push(["id", String(info.id)]);
  if (info.contentType !== undefined) {
    rows.push(["content type", info.contentType]);
  }
  const checksum = listedChecksum(info);
  if (checksum !== undefined) {
    rows.push(["checksum", `${checksum.type} ${checksum.value}`]);
  }
  if (info.tabular) {
    rows.push(["ingested", "archival form, served longer than listed"]);
  }
  if (info.format === "original") {
    rows.push(["ingested", "the original upload (format=original)"]);
  }
  const note = accessNote(info);
  if (note !== undefined) rows.push(["access", note]);
  return rows.map(([field, value]) => `${`${field}:`.padEnd(14)}${value}`);
}

/** `512`, or from 1 KiB on `2048 (2.0 KiB)`. */
function byteCount(bytes: number): string {
  return bytes < 1024 ? String(bytes) : `${bytes} (${formatSize(bytes)})`;
}

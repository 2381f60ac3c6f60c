/**
 * Tables (`.tab`, `.csv`, `.tsv`) and text files of a dataset read by
 * range: the whole lines of a byte window, and the first or last lines.
 *
 * @module
 */

export type { ByteSource } from "./src/formats/source.ts";
export type { Checksum, FileInfo } from "./src/base/types.ts";
export { lines, type LinesOptions } from "./src/formats/text/lines.ts";
export { head, tail, type TextOptions } from "./src/formats/text/head_tail.ts";

/**
 * Reads record slabs. Where records are small, each read takes the block
 * of neighbouring records around the one asked for (at most
 * {@linkcode BLOCK_BYTES}), and the last few blocks are kept: the values of
 * a variable across all records (a time axis) then cost a few requests,
 * not one per record.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import type { ChunkRange } from "./classic_view.ts";
import { NetcdfFormatError } from "./errors.ts";
import type { Header } from "./header.ts";

/** Most bytes read for one record's slab when records are small. */
export const BLOCK_BYTES = 32 * 1024;

/** Blocks kept. */
const KEPT_BLOCKS = 16;

/** The record slabs of one classic file. */
export class RecordBlocks {
  readonly #blocks = new Map<number, Promise<Uint8Array>>();
  readonly #perBlock: number;

  constructor(
    readonly source: ByteSource,
    readonly path: string,
    readonly size: number,
    readonly header: Header,
    readonly signal?: AbortSignal,
  ) {
    this.#perBlock = Math.floor(BLOCK_BYTES / Math.max(1, header.recordSize));
  }

  /** The bytes of `range`, the slab of record `record` of a variable. */
  async read(
    range: ChunkRange,
    record: number,
    variable: string,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    if (this.#perBlock < 2) {
      return await readRange(this.source, this.path, range, variable, signal);
    }
    const block = Math.floor(record / this.#perBlock);
    const start = this.header.recordsBegin +
      block * this.#perBlock * this.header.recordSize;
    const bytes = await this.#block(block, start, variable);
    signal?.throwIfAborted();
    const at = range.offset - start;
    if (at + range.length > bytes.length) {
      throw new NetcdfFormatError(
        this.path,
        `record ${record} is past the ${bytes.length} bytes read from byte ${start}`,
        { variable },
      );
    }
    return bytes.slice(at, at + range.length);
  }

  #block(block: number, start: number, variable: string): Promise<Uint8Array> {
    let bytes = this.#blocks.get(block);
    if (bytes !== undefined) {
      this.#blocks.delete(block);
      this.#blocks.set(block, bytes);
      return bytes;
    }
    const records = Math.min(
      this.#perBlock,
      this.header.records - block * this.#perBlock,
    );
    const end = Math.min(this.size, start + records * this.header.recordSize);
    bytes = readRange(
      this.source,
      this.path,
      { offset: start, length: end - start },
      variable,
      this.signal,
    );
    this.#blocks.set(block, bytes);
    bytes.catch(() => this.#blocks.delete(block));
    if (this.#blocks.size > KEPT_BLOCKS) {
      this.#blocks.delete(this.#blocks.keys().next().value!);
    }
    return bytes;
  }
}

/** The bytes of `range` of the file, all of them or a named error. */
export async function readRange(
  source: ByteSource,
  path: string,
  range: ChunkRange,
  variable: string,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if (range.length === 0) return new Uint8Array(range.padTo ?? 0);
  const bytes = await source.catFile(path, {
    start: range.offset,
    end: range.offset + range.length,
    signal,
  });
  if (bytes.length !== range.length) {
    throw new NetcdfFormatError(
      path,
      `bytes ${range.offset}–${
        range.offset + range.length
      } came back as ${bytes.length} bytes`,
      { variable },
    );
  }
  if (range.padTo === undefined) return bytes;
  const padded = new Uint8Array(range.padTo);
  padded.set(bytes);
  return padded;
}

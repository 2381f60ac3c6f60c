/**
 * geotiff.js's source (its `BaseSource`) over a file of a `ByteSource`:
 * the first read takes the file's first {@linkcode FIRST_READ} bytes, which
 * answer every later slice inside them (a COG's header and directories); the
 * other slices are ranged `catFile`s of their bytes, those asked together
 * and lying side by side joined into one.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { GeotiffFormatError } from "./geotiff_format_error.ts";
import { AdjacentReads } from "./adjacent_reads.ts";

/** The first read: enough for a COG's header, directories and tile tables. */
export const FIRST_READ = 64 * 1024;

/** A byte range geotiff.js asks for. */
interface Slice {
  offset: number;
  length: number;
}

/** The errors of the source itself, passed on as they are rather than as format errors. */
const sourceErrors = new WeakSet<object>();

/** Whether `error` came from the source (HTTP, not found, abort) rather than from the file's content. */
export function isSourceError(error: unknown): boolean {
  return typeof error === "object" && error !== null &&
    sourceErrors.has(error);
}

/** geotiff.js's `BaseSource`, reading file `path` of `source` by range. */
export class RangeSource {
  #first?: Promise<Uint8Array>;
  readonly #reads = new AdjacentReads((start, end, signal) =>
    this.#read(start, end, signal)
  );

  /**
   * @param source where the file is
   * @param path the file's path in `source`
   * @param size the file's size, when known (slices are cut at its end)
   * @param first the file's first bytes, when another thread already read them
   * @param signal aborts the reads geotiff.js makes without a signal of its own
   */
  constructor(
    readonly source: ByteSource,
    readonly path: string,
    readonly size: number | null,
    first?: Uint8Array,
    readonly signal?: AbortSignal,
  ) {
    if (first !== undefined) this.#first = Promise.resolve(first);
  }

  /** The file's first bytes, read once. */
  firstBytes(signal?: AbortSignal): Promise<Uint8Array> {
    this.#first ??= this.#read(0, FIRST_READ, signal);
    return this.#first;
  }

  /** The bytes of each slice, in order. */
  fetch(slices: Slice[], signal?: AbortSignal): Promise<ArrayBuffer[]> {
    return Promise.all(
      slices.map(async (slice) => (await this.fetchSlice(slice, signal)).data),
    );
  }

  /** The bytes of one slice: from the first read when inside it. */
  async fetchSlice(
    { offset, length }: Slice,
    signal?: AbortSignal,
  ): Promise<Slice & { data: ArrayBuffer }> {
    if (this.size !== null && offset >= this.size && length > 0) {
      throw new GeotiffFormatError(
        this.path,
        `bytes ${offset}..${
          offset + length
        } lie outside its ${this.size} bytes`,
      );
    }
    const end = this.size === null
      ? offset + length
      : Math.min(offset + length, this.size);
    const first = await this.firstBytes(signal);
    const inFirst = end <= first.byteLength ||
      (this.size !== null && first.byteLength === this.size);
    const bytes = inFirst
      ? first.subarray(offset, end)
      : await this.#reads.read(offset, end, signal ?? this.signal);
    return { offset, length, data: bytes.slice().buffer };
  }

  /** The file's size, when the listing gives it. */
  get fileSize(): number | null {
    return this.size;
  }

  /** Nothing is held open. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  async #read(
    start: number,
    end: number,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const bounded = this.size === null ? end : Math.min(end, this.size);
    try {
      return await this.source.catFile(this.path, {
        start,
        end: bounded,
        signal: signal ?? this.signal,
      });
    } catch (error) {
      if (typeof error === "object" && error !== null) sourceErrors.add(error);
      throw error;
    }
  }
}

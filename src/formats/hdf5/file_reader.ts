/**
 * Reads an HDF5 file's metadata by range, page by page: pages read once are
 * kept, and all the ranges one step of a walk needs are fetched at once,
 * pages near each other in one request.
 *
 * @module
 */

import { concat } from "../../content/content.ts";
import type { ByteSource } from "../source.ts";
import { Hdf5FormatError } from "./errors.ts";

/** Bytes of a metadata page. */
export const PAGE_SIZE = 4096;

/**
 * Bytes of a file's first read: its whole metadata in the common case (on
 * fixtures/real/, 88 of 90 NetCDF/HDF5 files need no other metadata read at
 * 256 KiB, 44 at 16 KiB).
 */
export const FIRST_READ_BYTES = 256 * 1024;

/**
 * Bytes past {@linkcode FIRST_READ_BYTES} that the first read takes rather
 * than leave to later requests: bytes cost far less than a round trip, and
 * the end of a file often holds what its writer added on closing it.
 */
const FIRST_READ_SLACK = 64 * 1024;

/**
 * Bytes of the first read of a file of `size` bytes: the whole file when it
 * is at most {@linkcode FIRST_READ_SLACK} longer than
 * {@linkcode FIRST_READ_BYTES}. Of the 100 NetCDF/HDF5 files of fixtures/
 * that open, 99 did in one read without it and one of 267 KB in three; with
 * it, all in one, for 910 bytes more (bench/netcdf_trips.ts --corpus).
 */
export function firstReadBytes(size: number): number {
  return size <= FIRST_READ_BYTES + FIRST_READ_SLACK ? size : FIRST_READ_BYTES;
}

/** Pages missing between two wanted ones that are read anyway, to make one request. */
const MERGE_GAP_PAGES = 2;

/** A range of the file. */
export interface ByteRange {
  offset: number;
  length: number;
}

/** One file of a source, read by range with bounds checks and a page cache. */
export class FileReader {
  readonly #pages = new Map<number, Promise<Uint8Array>>();
  /** Where address 0 is in the file: the superblock's base address. */
  base = 0;

  constructor(
    readonly source: ByteSource,
    readonly path: string,
    readonly size: number,
    readonly signal?: AbortSignal,
    /** Where chunk data is read from: `source` unless told. */
    readonly data: ByteSource = source,
  ) {}

  /** Throws if `range` is not inside the file. */
  check({ offset, length }: ByteRange, what: string): void {
    offset += this.base;
    if (
      !Number.isSafeInteger(offset) || !Number.isSafeInteger(length) ||
      offset < 0 || length < 0 || offset + length > this.size
    ) {
      throw new Hdf5FormatError(
        this.path,
        `${what} at address ${offset} (${length} bytes) is outside the file of ${this.size} bytes`,
      );
    }
  }

  /** Whether the file has a byte at `address`. */
  holds(address: number): boolean {
    return Number.isSafeInteger(address) && address >= 0 &&
      this.base + address < this.size;
  }

  /** The bytes of `range`, read uncached (chunk data). */
  async raw(
    range: ByteRange,
    what: string,
    signal = this.signal,
  ): Promise<Uint8Array> {
    this.check(range, what);
    if (range.length === 0) return new Uint8Array(0);
    return await this.data.catFile(this.path, {
      start: this.base + range.offset,
      end: this.base + range.offset + range.length,
      signal,
    });
  }

  /**
   * Reads the pages of all `ranges` that are not cached yet, in few
   * requests; a range that runs past the end of the file is cut there.
   */
  async prefetch(ranges: ByteRange[], what: string): Promise<void> {
    const wanted = new Set<number>();
    for (const asked of ranges) {
      this.check({ offset: asked.offset, length: 0 }, what);
      const range = {
        offset: asked.offset,
        length: Math.min(asked.length, this.size - this.base - asked.offset),
      };
      if (range.length === 0) continue;
      const offset = this.base + range.offset;
      const first = Math.floor(offset / PAGE_SIZE);
      const last = Math.floor((offset + range.length - 1) / PAGE_SIZE);
      for (let page = first; page <= last; page++) {
        if (!this.#pages.has(page)) wanted.add(page);
      }
    }
    const sorted = [...wanted].sort((a, b) => a - b);
    const spans: [number, number][] = [];
    for (const page of sorted) {
      const span = spans.at(-1);
      if (
        span && page - span[1] <= MERGE_GAP_PAGES + 1 &&
        !this.#cachedBetween(span[1], page)
      ) {
        span[1] = page;
      } else {
        spans.push([page, page]);
      }
    }
    for (const [first, last] of spans) {
      const start = first * PAGE_SIZE;
      const end = Math.min(this.size, (last + 1) * PAGE_SIZE);
      const bytes = this.source.catFile(this.path, {
        start,
        end,
        signal: this.signal,
      });
      for (let page = first; page <= last; page++) {
        const at = (page - first) * PAGE_SIZE;
        const pageBytes = bytes.then((b) => b.subarray(at, at + PAGE_SIZE));
        pageBytes.catch(() => this.#pages.delete(page));
        this.#pages.set(page, pageBytes);
      }
    }
    await Promise.all(sorted.map((page) => this.#pages.get(page)));
  }

  /** Whether a page after `from` and before `to` is cached (or being read). */
  #cachedBetween(from: number, to: number): boolean {
    for (let page = from + 1; page < to; page++) {
      if (this.#pages.has(page)) return true;
    }
    return false;
  }

  /** The bytes of `range`, through the page cache. */
  async bytes(range: ByteRange, what: string): Promise<Uint8Array> {
    this.check(range, what);
    if (range.length === 0) return new Uint8Array(0);
    await this.prefetch([range], what);
    const offset = this.base + range.offset;
    const first = Math.floor(offset / PAGE_SIZE);
    const last = Math.floor((offset + range.length - 1) / PAGE_SIZE);
    const pages = await Promise.all(
      Array.from(
        { length: last - first + 1 },
        (_, i) => this.#pages.get(first + i)!,
      ),
    );
    const at = offset - first * PAGE_SIZE;
    if (pages.length === 1) return pages[0].subarray(at, at + range.length);
    return concat(pages).subarray(at, at + range.length);
  }

  /** Up to `length` bytes from `offset`, fewer at the end of the file. */
  async upTo(
    offset: number,
    length: number,
    what: string,
  ): Promise<Uint8Array> {
    this.check({ offset, length: 0 }, what);
    const left = this.size - this.base - offset;
    return await this.bytes({ offset, length: Math.min(length, left) }, what);
  }
}

/**
 * Big-endian reading of a classic NetCDF header from the bytes fetched so
 * far: running past them asks for more ({@linkcode ShortHeader}), running
 * past the file or the header's limit is a {@linkcode NetcdfFormatError}.
 *
 * @module
 */

import { NetcdfFormatError } from "./errors.ts";

/** The longest header read, whatever the file: a longer one is refused as damaged. */
export const MAX_HEADER_BYTES = 16 * 2 ** 20;

/** The header goes on past the bytes fetched: fetch up to `needed` and parse again. */
export class ShortHeader extends Error {
  constructor(readonly needed: number) {
    super(`the header needs ${needed} bytes`);
  }
}

/** Reads header fields one after another. */
export class HeaderCursor {
  pos = 0;
  readonly #view: DataView;
  /** Where the header must end: the file's end or {@linkcode MAX_HEADER_BYTES}. */
  readonly limit: number;

  /**
   * @param bytes the file's first bytes
   * @param path the file's path, for errors
   * @param fileSize the file's size
   * @param wide whether counts and lengths are 8 bytes (CDF-5), not 4
   * @param wideOffsets whether `begin` offsets are 8 bytes (CDF-2, CDF-5)
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly path: string,
    readonly fileSize: number,
    readonly wide: boolean,
    readonly wideOffsets: boolean,
  ) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.limit = Math.min(fileSize, MAX_HEADER_BYTES);
  }

  /** Bytes a count or length takes. */
  get countBytes(): number {
    return this.wide ? 8 : 4;
  }

  /** Moves past `count` bytes, returning where they start. */
  #need(count: number): number {
    const end = this.pos + count;
    if (end > this.limit) throw this.tooLong(end);
    if (end > this.bytes.length) throw new ShortHeader(end);
    const at = this.pos;
    this.pos = end;
    return at;
  }

  /** The error for a header that would end at `end`. */
  tooLong(end: number): NetcdfFormatError {
    return new NetcdfFormatError(
      this.path,
      end > this.fileSize
        ? `the header runs past the end of the file (${this.fileSize} bytes): truncated or damaged`
        : `the header is longer than ${MAX_HEADER_BYTES} bytes: damaged`,
    );
  }

  u32(): number {
    return this.#view.getUint32(this.#need(4));
  }

  #u64(what: string): number {
    const at = this.pos;
    const value = this.#view.getBigUint64(this.#need(8));
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new NetcdfFormatError(
        this.path,
        `${what} at byte ${at} is ${value}: damaged`,
      );
    }
    return Number(value);
  }

  /** A count or length: 4 bytes, 8 in CDF-5. */
  count(what: string): number {
    return this.wide ? this.#u64(what) : this.u32();
  }

  /** A variable's `begin`: 4 bytes in CDF-1, else 8. */
  offset(what: string): number {
    return this.wideOffsets ? this.#u64(what) : this.u32();
  }

  /**
   * A count of items each taking at least `leastBytes` of the header,
   * refused when that many cannot fit before the header's limit.
   */
  items(what: string, leastBytes: number): number {
    const at = this.pos;
    const n = this.count(`the ${what} count`);
    if (n * leastBytes > this.limit - this.pos) {
      throw new NetcdfFormatError(
        this.path,
        `${n} ${what} (count at byte ${at}) cannot fit in the header: damaged`,
      );
    }
    return n;
  }

  /** `length` bytes, then the padding to a multiple of 4. */
  padded(length: number): Uint8Array {
    const at = this.#need(length);
    this.#need((4 - length % 4) % 4);
    return this.bytes.subarray(at, at + length);
  }
}

/**
 * Little-endian reading of HDF5 structures from bytes already fetched.
 *
 * @module
 */

import { Hdf5FormatError } from "./errors.ts";

/** The "undefined address" (all bits set) read as a number. */
export const UNDEFINED_ADDRESS = -1;

/** Sizes the superblock fixes for the whole file. */
export interface Sizes {
  /** Bytes of a file address. */
  offsets: number;
  /** Bytes of a length. */
  lengths: number;
}

/** Reads fields one after another from `bytes`, which start at file address `at`. */
export class Cursor {
  pos = 0;
  readonly #view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    readonly sizes: Sizes,
    readonly path: string,
    readonly at = 0,
  ) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Bytes left after the position. */
  get left(): number {
    return this.bytes.length - this.pos;
  }

  #need(count: number): number {
    if (count < 0 || this.pos + count > this.bytes.length) {
      throw new Hdf5FormatError(
        this.path,
        `a structure at address ${this.at} runs past its ${this.bytes.length} bytes`,
      );
    }
    const pos = this.pos;
    this.pos += count;
    return pos;
  }

  u8(): number {
    return this.#view.getUint8(this.#need(1));
  }

  u16(): number {
    return this.#view.getUint16(this.#need(2), true);
  }

  u32(): number {
    return this.#view.getUint32(this.#need(4), true);
  }

  /** An unsigned integer of `size` bytes (1 to 8); above 2^53 is an error. */
  uint(size: number): number {
    const pos = this.#need(size);
    let value = 0;
    for (let i = size - 1; i >= 0; i--) {
      value = value * 256 + this.bytes[pos + i];
    }
    if (!Number.isSafeInteger(value)) {
      throw new Hdf5FormatError(
        this.path,
        `a ${size}-byte value at address ${this.at + pos} is too large`,
      );
    }
    return value;
  }

  /** A file address; {@linkcode UNDEFINED_ADDRESS} when all its bits are set. */
  offset(): number {
    const pos = this.pos;
    if (
      this.bytes.subarray(pos, pos + this.sizes.offsets).every((b) =>
        b === 0xff
      )
    ) {
      this.#need(this.sizes.offsets);
      return UNDEFINED_ADDRESS;
    }
    return this.uint(this.sizes.offsets);
  }

  length(): number {
    const pos = this.pos;
    if (
      this.bytes.subarray(pos, pos + this.sizes.lengths).every((b) =>
        b === 0xff
      )
    ) {
      this.#need(this.sizes.lengths);
      return UNDEFINED_ADDRESS;
    }
    return this.uint(this.sizes.lengths);
  }

  take(count: number): Uint8Array {
    const pos = this.#need(count);
    return this.bytes.subarray(pos, pos + count);
  }

  skip(count: number): void {
    this.#need(count);
  }

  /** Moves to the next multiple of `alignment` from the start. */
  align(alignment: number): void {
    this.pos = Math.min(
      this.bytes.length,
      Math.ceil(this.pos / alignment) * alignment,
    );
  }

  /** Four ASCII bytes, checked against `signature`. */
  signature(signature: string): void {
    const found = new TextDecoder().decode(this.take(4));
    if (found !== signature) {
      throw new Hdf5FormatError(
        this.path,
        `expected "${signature}" at address ${this.at + this.pos - 4}, found ${
          JSON.stringify(found)
        }`,
      );
    }
  }

  /** A NUL-terminated string, the NUL consumed. */
  cString(): string {
    const end = this.bytes.indexOf(0, this.pos);
    if (end < 0) {
      throw new Hdf5FormatError(
        this.path,
        `an unterminated name at address ${this.at + this.pos}`,
      );
    }
    const text = new TextDecoder().decode(this.bytes.subarray(this.pos, end));
    this.pos = end + 1;
    return text;
  }
}

/**
 * A member's bytes, read by range from its archive: a stored member's range
 * maps onto the archive's; a deflated member is inflated from its start, its
 * data read in growing pieces, until the range is produced. Whole reads are
 * checked against the directory's size and CRC-32.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import { view, type ZipEntry } from "./central_directory.ts";
import { crc32 } from "./crc32.ts";
import { ZipFormatError } from "./zip_format_error.ts";

const LOCAL_SIGNATURE = 0x04034b50;
/** Bytes allowed for a local extra field longer than the directory's. */
const EXTRA_SLACK = 64;
/** A range starting below this is read with the local header, in one request. */
const WITH_HEADER = 64 * 1024;
const SMALLEST_PIECE = 16 * 1024;
const LARGEST_PIECE = 4 * 1024 * 1024;
/** Most compressed bytes handed to the inflater at once. */
const FEED = 16 * 1024;

const METHOD_NAMES: Record<number, string> = {
  1: "shrink",
  2: "reduce",
  3: "reduce",
  4: "reduce",
  5: "reduce",
  6: "implode",
  9: "deflate64",
  10: "PKWARE DCL implode",
  12: "bzip2",
  14: "LZMA",
  16: "IBM z/OS CMPSC",
  18: "IBM TERSE",
  19: "IBM LZ77",
  20: "zstd (old number)",
  93: "zstd",
  94: "MP3",
  95: "XZ",
  96: "JPEG",
  97: "WavPack",
  98: "PPMd",
};

/** The archive a member is read from. */
export class ZipArchive {
  /** Where each member's data starts, once its local header was read. */
  readonly #dataStarts = new Map<ZipEntry, number>();

  /**
   * @param source what holds the archive
   * @param path the archive's path in `source`
   * @param dataEnd where the central directory starts
   */
  constructor(
    readonly source: ByteSource,
    readonly path: string,
    readonly dataEnd: number,
  ) {}

  /**
   * The uncompressed bytes `start`..`end` of `entry` (within its size), in
   * pieces; checked against the directory's size and CRC-32 when whole.
   */
  async *chunks(
    entry: ZipEntry,
    start: number,
    end: number,
    signal?: AbortSignal,
    pieceSize = LARGEST_PIECE,
  ): AsyncGenerator<Uint8Array> {
    this.#check(entry);
    if (start >= end) return;
    const whole = start === 0 && end === entry.size;
    let crc = 0;
    // A stored member's bytes come from `start`, an inflated one's from 0.
    let produced = entry.method === 0 ? start : 0;
    const chunks = entry.method === 0
      ? this.#raw(entry, start, end, end - start, pieceSize, signal)
      : this.#inflated(entry, end, whole, signal);
    for await (const chunk of chunks) {
      if (whole) crc = crc32(chunk, crc);
      const from = Math.max(0, start - produced);
      produced += chunk.length;
      if (produced <= start) continue;
      yield chunk.subarray(from, chunk.length - Math.max(0, produced - end));
      if (produced >= end && !whole) return;
    }
    if (produced < end) {
      this.#fail(
        entry,
        `its data ends after ${produced} bytes, the directory says ${entry.size}`,
      );
    }
    if (whole && produced > end) {
      this.#fail(
        entry,
        `its data holds more than the ${entry.size} bytes the directory says`,
      );
    }
    if (whole && crc !== entry.crc32) {
      this.#fail(
        entry,
        `CRC-32 mismatch: the data gives ${hex(crc)}, the directory says ${
          hex(entry.crc32)
        }`,
      );
    }
  }

  #check(entry: ZipEntry): void {
    if (entry.flags & 1 || entry.method === 99) {
      this.#fail(entry, "it is encrypted; encrypted members are not read");
    }
    if (entry.method !== 0 && entry.method !== 8) {
      const name = METHOD_NAMES[entry.method];
      this.#fail(
        entry,
        `compression method ${entry.method}${
          name ? ` (${name})` : ""
        } is not supported (only stored and deflate)`,
      );
    }
    if (entry.method === 0 && entry.size !== entry.compressedSize) {
      this.#fail(
        entry,
        `it is stored, yet its size (${entry.size}) is not its stored size (${entry.compressedSize})`,
      );
    }
  }

  /**
   * The deflated data of `entry` inflated, one piece at a time: the next
   * piece is read only once the last one's output is taken, so a range
   * that ends early stops the reading there, unless `whole`.
   */
  async *#inflated(
    entry: ZipEntry,
    end: number,
    whole: boolean,
    signal?: AbortSignal,
  ): AsyncGenerator<Uint8Array> {
    // Deflate never grows data by more than a few bytes per 64 KiB block.
    const first = Math.max(SMALLEST_PIECE, end + (end >> 10) + 1024);
    const raw = this.#raw(
      entry,
      0,
      entry.compressedSize,
      first,
      LARGEST_PIECE,
      signal,
    );
    const { readable, writable } = new DecompressionStream("deflate-raw");
    const writer = writable.getWriter();
    const reader = readable.getReader();
    const inflating = async <T>(step: Promise<T>): Promise<T> => {
      try {
        return await step;
      } catch (error) {
        this.#fail(
          entry,
          `its deflate data is damaged (${(error as Error).message})`,
        );
      }
    };
    let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
    let produced = 0;
    try {
      const fed = async function* (piece?: Uint8Array) {
        // Writing waits for a pending read, whose result the output fulfils first.
        const written = piece === undefined
          ? writer.close()
          : writer.write(piece as Uint8Array<ArrayBuffer>);
        const taken = written.then(() => undefined);
        for (;;) {
          pending ??= reader.read();
          const next = await inflating(Promise.race([pending, taken]));
          if (next === undefined) return;
          pending = undefined;
          if (next.done) return;
          yield next.value;
        }
      };
      for await (const piece of raw) {
        // Fed in bits, as one bit can inflate to a thousand times its size.
        for (let at = 0; at < piece.length; at += FEED) {
          for await (const output of fed(piece.subarray(at, at + FEED))) {
            produced += output.length;
            yield output;
            // Past the range, or more than the directory says: stop here.
            if ((produced >= end && !whole) || produced > entry.size) return;
          }
        }
      }
      for await (const output of fed()) {
        produced += output.length;
        yield output;
        if (produced > entry.size) return;
      }
    } finally {
      pending?.catch(() => {});
      await reader.cancel().catch(() => {});
    }
  }

  /**
   * The stored bytes `from`..`to` of `entry`, in pieces of `firstPiece`
   * bytes then twice as many up to `largestPiece`.
   */
  async *#raw(
    entry: ZipEntry,
    from: number,
    to: number,
    firstPiece: number,
    largestPiece: number,
    signal?: AbortSignal,
  ): AsyncGenerator<Uint8Array> {
    let piece = Math.min(firstPiece, largestPiece);
    let at = from;
    let dataStart = this.#dataStarts.get(entry);
    if (dataStart === undefined) {
      const prefetch = from < WITH_HEADER
        ? from + Math.min(piece, to - from)
        : 0;
      const head = await this.#localHeader(entry, prefetch, signal);
      dataStart = head.dataStart;
      const ready = head.data.subarray(from, to);
      if (ready.length > 0) {
        yield ready;
        at += ready.length;
        piece = Math.min(piece * 2, largestPiece);
      }
    }
    while (at < to) {
      signal?.throwIfAborted();
      const length = Math.min(piece, to - at);
      const bytes = await this.source.catFile(this.path, {
        start: dataStart + at,
        end: dataStart + at + length,
        signal,
      });
      if (bytes.length !== length) {
        this.#fail(
          entry,
          `the archive ended ${length - bytes.length} bytes early: truncated`,
        );
      }
      yield bytes;
      at += length;
      piece = Math.min(piece * 2, largestPiece);
    }
  }

  /**
   * Reads the local header of `entry` and up to `prefetch` bytes of its
   * data in one request: where its data starts, and those bytes.
   */
  async #localHeader(
    entry: ZipEntry,
    prefetch: number,
    signal?: AbortSignal,
  ): Promise<{ dataStart: number; data: Uint8Array }> {
    const at = entry.localHeaderOffset;
    const guess = 30 + byteLength(entry.name) + entry.extraLength + EXTRA_SLACK;
    const bytes = await this.source.catFile(this.path, {
      start: at,
      end: Math.min(this.dataEnd, at + guess + prefetch),
      signal,
    });
    const header = view(bytes);
    if (bytes.length < 30 || header.getUint32(0, true) !== LOCAL_SIGNATURE) {
      this.#fail(entry, `no local header at ${at}, where the directory points`);
    }
    const dataStart = at + 30 + header.getUint16(26, true) +
      header.getUint16(28, true);
    if (dataStart + entry.compressedSize > this.dataEnd) {
      this.#fail(
        entry,
        `its data (${entry.compressedSize} bytes from ${dataStart}) lies past the central directory at ${this.dataEnd}`,
      );
    }
    this.#dataStarts.set(entry, dataStart);
    return { dataStart, data: bytes.subarray(dataStart - at) };
  }

  #fail(entry: ZipEntry, problem: string): never {
    throw new ZipFormatError(this.path, problem, entry.name);
  }
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}

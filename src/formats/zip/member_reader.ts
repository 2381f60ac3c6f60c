/**
 * A member's bytes, read by range from its archive: a stored member's range
 * maps onto the archive's; a compressed member is decoded from its start,
 * its data read in growing pieces, and where a read stops its decoder is
 * kept (a few per archive) with the last bytes it gave, so that a next
 * window from a little before there on goes on from it: a member read in
 * increasing windows is decoded once. Decoding
 * stops past the directory's size; a read that reaches the member's end is
 * checked against its CRC-32, as is a whole stored member. Members read
 * together (a `Promise.all` of them) that lie close in the archive come in
 * one request, each local header still checked on its own bytes.
 *
 * @module
 */

import { coalescing } from "../coalesced_reads.ts";
import type { ByteSource } from "../source.ts";
import type { ZipEntry } from "./central_directory.ts";
import { crc32 } from "./crc32.ts";
import { DecodedHistory } from "./decoded_history.ts";
import { DECODED_METHODS, openDecoder } from "./decoders.ts";
import { readLocalHeader } from "./local_header.ts";
import { ZipFormatError } from "./zip_format_error.ts";

/** A range starting below this is read with the local header, in one request. */
const WITH_HEADER = 64 * 1024;
const SMALLEST_PIECE = 16 * 1024;
const LARGEST_PIECE = 4 * 1024 * 1024;
/** The output aimed at for one bit of input, and the smallest bit fed. */
const OUTPUT_AIM = 1024 * 1024;
const SMALLEST_FEED = 256;
/** Decoders kept per archive for reads that go on where one stopped. */
const KEPT_CURSORS = 4;

const METHOD_NAMES: Record<number, string> = {
  1: "shrink",
  2: "reduce",
  3: "reduce",
  4: "reduce",
  5: "reduce",
  6: "implode",
  10: "PKWARE DCL implode",
  12: "bzip2",
  14: "LZMA",
  16: "IBM z/OS CMPSC",
  18: "IBM TERSE",
  19: "IBM LZ77",
  20: "zstd (old number)",
  94: "MP3",
  95: "XZ",
  96: "JPEG",
  97: "WavPack",
  98: "PPMd",
};

/** The signal of the read a cursor now serves. */
interface Reading {
  signal?: AbortSignal;
}

/** Where the decoding of a member stands. */
interface Cursor {
  /** The member's decoded bytes from its start, in pieces. */
  outputs: AsyncGenerator<Uint8Array>;
  /** The member offset of `rest`'s first byte. */
  at: number;
  /** Decoded bytes not yet given out. */
  rest: Uint8Array;
  /** The last bytes given out (or skipped), before `at`. */
  history: DecodedHistory;
  /** The CRC-32 of all the bytes decoded. */
  crc: number;
  reading: Reading;
}

/** The archive a member is read from. */
export class ZipArchive {
  /** Where each member's data starts, once its local header was read. */
  readonly #dataStarts = new Map<ZipEntry, number>();
  /** Decoders where reads stopped, oldest first. */
  readonly #cursors = new Map<ZipEntry, Cursor>();

  /** What holds the archive; member reads asked in one turn come merged (coalesced_reads.ts). */
  readonly source: ByteSource;

  /**
   * @param source what holds the archive
   * @param path the archive's path in `source`
   */
  constructor(source: ByteSource, readonly path: string) {
    this.source = coalescing(source, path);
  }

  /**
   * The uncompressed bytes `start`..`end` of `entry` (within its size), in
   * pieces; a stored member's ranges of the archive come in pieces of up to
   * `pieceSize` bytes.
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
    if (entry.method !== 0) {
      yield* this.#decoded(entry, start, end, signal);
      return;
    }
    const whole = start === 0 && end === entry.size;
    let crc = 0;
    const reading = { signal };
    for await (
      const chunk of this.#raw(
        entry,
        start,
        end,
        end - start,
        pieceSize,
        reading,
      )
    ) {
      if (whole) crc = crc32(chunk, crc);
      yield chunk;
    }
    if (whole) this.#checkCrc(entry, crc);
  }

  #check(entry: ZipEntry): void {
    if (entry.flags & 1 || entry.method === 99) {
      this.#fail(entry, "it is encrypted; encrypted members are not read");
    }
    if (entry.method !== 0 && !DECODED_METHODS.has(entry.method)) {
      const name = METHOD_NAMES[entry.method];
      this.#fail(
        entry,
        `compression method ${entry.method}${
          name ? ` (${name})` : ""
        } is not supported (only stored, deflate, Deflate64 and Zstandard)`,
      );
    }
    if (entry.method === 0 && entry.size !== entry.compressedSize) {
      this.#fail(
        entry,
        `it is stored, yet its size (${entry.size}) is not its stored size (${entry.compressedSize})`,
      );
    }
    if (entry.sharesHeaderWith !== undefined) {
      this.#fail(
        entry,
        `its local header is also member "${entry.sharesHeaderWith}"'s: members may not overlap`,
      );
    }
  }

  /** `start`..`end` of a compressed member, from a kept cursor or its start. */
  async *#decoded(
    entry: ZipEntry,
    start: number,
    end: number,
    signal?: AbortSignal,
  ): AsyncGenerator<Uint8Array> {
    const cursor = this.#takeCursor(entry, start) ??
      this.#newCursor(entry, end);
    cursor.reading.signal = signal;
    let kept = false;
    try {
      if (start < cursor.at) {
        yield cursor.history.slice(start, Math.min(end, cursor.at));
      }
      while (cursor.at < end) {
        if (cursor.rest.length === 0) {
          await this.#next(entry, cursor);
          continue;
        }
        const skip = Math.max(0, start - cursor.at);
        const take = Math.min(cursor.rest.length, end - cursor.at);
        const given = cursor.rest.subarray(skip, take);
        cursor.history.append(cursor.rest.subarray(0, take));
        cursor.rest = cursor.rest.subarray(take);
        cursor.at += take;
        if (given.length > 0) yield given;
      }
      if (cursor.at === entry.size) {
        // The member's end: nothing may follow, and the CRC-32 must hold.
        while (await this.#next(entry, cursor));
        this.#checkCrc(entry, cursor.crc);
      }
      this.#keep(entry, cursor);
      kept = true;
    } finally {
      if (!kept) await cursor.outputs.return(undefined).catch(() => {});
    }
  }

  /** Takes the next decoded piece as `cursor.rest` (then empty); false at the data's end. */
  async #next(entry: ZipEntry, cursor: Cursor): Promise<boolean> {
    const next = await cursor.outputs.next();
    const produced = cursor.at + cursor.rest.length;
    if (next.done) {
      if (produced < entry.size) {
        this.#fail(
          entry,
          `its data ends after ${produced} bytes, the directory says ${entry.size}`,
        );
      }
      return false;
    }
    if (produced + next.value.length > entry.size) {
      this.#fail(
        entry,
        `its data holds more than the ${entry.size} bytes the directory says`,
      );
    }
    cursor.crc = crc32(next.value, cursor.crc);
    cursor.rest = next.value;
    return true;
  }

  #takeCursor(entry: ZipEntry, start: number): Cursor | undefined {
    const cursor = this.#cursors.get(entry);
    if (cursor === undefined || cursor.history.start > start) return undefined;
    this.#cursors.delete(entry);
    return cursor;
  }

  #keep(entry: ZipEntry, cursor: Cursor): void {
    const older = this.#cursors.get(entry);
    this.#cursors.delete(entry);
    this.#cursors.set(entry, cursor);
    const dropped = older ? [older] : [];
    if (this.#cursors.size > KEPT_CURSORS) {
      const [oldest] = this.#cursors.keys();
      dropped.push(this.#cursors.get(oldest)!);
      this.#cursors.delete(oldest);
    }
    for (const cursor of dropped) {
      cursor.outputs.return(undefined).catch(() => {});
    }
  }

  #newCursor(entry: ZipEntry, end: number): Cursor {
    const reading: Reading = {};
    // Compressed data is rarely more than a little larger than what it holds.
    const first = Math.max(SMALLEST_PIECE, end + (end >> 10) + 1024);
    const raw = this.#raw(
      entry,
      0,
      entry.compressedSize,
      first,
      LARGEST_PIECE,
      reading,
    );
    return {
      outputs: this.#decode(entry, raw),
      at: 0,
      rest: new Uint8Array(0),
      history: new DecodedHistory(entry.size),
      crc: 0,
      reading,
    };
  }

  /**
   * The decoded bytes of `entry` from its `raw` data, fed to its decoder a
   * bit at a time, as one bit can inflate to a thousand times its size: the
   * bits shrink as far as needed for pieces of about 1 MiB.
   */
  async *#decode(
    entry: ZipEntry,
    raw: AsyncGenerator<Uint8Array>,
  ): AsyncGenerator<Uint8Array> {
    const decoder = openDecoder(entry.method);
    const method = DECODED_METHODS.get(entry.method);
    let fed = 0;
    let feed = decoder.feed;
    try {
      for await (const piece of raw) {
        for (let at = 0; at < piece.length;) {
          const bit = piece.subarray(at, at + feed);
          at += bit.length;
          fed += bit.length;
          const outputs = decoder.push(bit, fed === entry.compressedSize);
          let out = 0;
          for (;;) {
            let next: IteratorResult<Uint8Array>;
            try {
              next = await outputs.next();
            } catch (error) {
              this.#fail(
                entry,
                `its ${method} data is damaged (${(error as Error).message})`,
                error,
              );
            }
            if (next.done) break;
            out += next.value.length;
            yield next.value;
          }
          // A bit that inflated to more than OUTPUT_AIM is followed by a smaller one.
          feed = Math.max(
            SMALLEST_FEED,
            Math.min(decoder.feed, Math.floor(bit.length * OUTPUT_AIM / out)),
          );
        }
      }
    } finally {
      await raw.return(undefined);
      await decoder.close();
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
    reading: Reading,
  ): AsyncGenerator<Uint8Array> {
    let piece = Math.min(firstPiece, largestPiece);
    let at = from;
    let dataStart = this.#dataStarts.get(entry);
    if (dataStart === undefined) {
      const prefetch = from < WITH_HEADER
        ? from + Math.min(piece, to - from)
        : 0;
      const head = await readLocalHeader(
        this.source,
        this.path,
        entry,
        prefetch,
        (problem) => this.#fail(entry, problem),
        reading.signal,
      );
      dataStart = head.dataStart;
      this.#dataStarts.set(entry, dataStart);
      const ready = head.data.subarray(from, to);
      if (ready.length > 0) {
        yield ready;
        at += ready.length;
        piece = Math.min(piece * 2, largestPiece);
      }
    }
    while (at < to) {
      reading.signal?.throwIfAborted();
      const length = Math.min(piece, to - at);
      const bytes = await this.source.catFile(this.path, {
        start: dataStart + at,
        end: dataStart + at + length,
        signal: reading.signal,
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

  #checkCrc(entry: ZipEntry, crc: number): void {
    if (crc !== entry.crc32) {
      this.#fail(
        entry,
        `CRC-32 mismatch: the data gives ${hex(crc)}, the directory says ${
          hex(entry.crc32)
        }`,
      );
    }
  }

  #fail(entry: ZipEntry, problem: string, cause?: unknown): never {
    throw new ZipFormatError(this.path, problem, entry.name, cause);
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}

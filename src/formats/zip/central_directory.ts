/**
 * A zip archive's central directory, read by range: the archive's tail (a
 * share of it sized to hold the directory too, usually), with the end
 * record (then the zip64 end record when the locator names one), then the
 * part of the directory before the tail, if any, in one range.
 *
 * @module
 */

import { IsADirectoryError } from "../../base/errors.ts";
import { concat } from "../../content/content.ts";
import type { ByteSource } from "../source.ts";
import { memberName, UNICODE_COMMENT, UNICODE_PATH } from "./member_names.ts";
import { ZipFormatError } from "./zip_format_error.ts";

/** Most bytes after the end record's signature: its 22 bytes and a longest comment. */
const MAX_END_RECORD = 22 + 0xffff;
/** The zip64 locator stands just before the end record. */
const LOCATOR_LENGTH = 20;
/** The zip64 end record's fixed part. */
const ZIP64_END_LENGTH = 56;
/**
 * The first tail read: 1/256th of the archive, at least 8 KiB, at most
 * 1 MiB. On fixtures/ (bench/zip_open_reads.ts) 8 KiB holds the end record
 * and directory of all but one archive; a larger archive mostly has more
 * members, and a directory ~1/1000th of it (~100 bytes a member).
 */
const TAIL_SHARE = 256;
const SMALLEST_TAIL = 8192;
const LARGEST_TAIL = 2 ** 20;

const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const ENTRY_SIGNATURE = 0x02014b50;
/** The zip64 extended information extra field's id. */
export const ZIP64_EXTRA = 0x0001;

/** One member as the central directory describes it. */
export interface ZipEntry {
  /** The name as text (directories end in `/`). */
  name: string;
  /** The name's bytes as stored, which its local header must repeat. */
  rawName: Uint8Array;
  /** The member's comment, when it has one. */
  comment?: string;
  /** General purpose flags; bit 0: encrypted. */
  flags: number;
  /** Compression method: 0 stored, 8 deflate. */
  method: number;
  /** CRC-32 of the uncompressed bytes. */
  crc32: number;
  /** Bytes of the stored (compressed) data. */
  compressedSize: number;
  /** Bytes once uncompressed. */
  size: number;
  /** Where the member's local header starts in the archive. */
  localHeaderOffset: number;
  /** The extra field's length in the central directory (the local one is often alike). */
  extraLength: number;
  /** Where the next member's local header (or the central directory) starts. */
  dataLimit: number;
  /** A member whose local header is where this one's is, if any. */
  sharesHeaderWith?: string;
}

/** The members of an archive. */
export interface CentralDirectory {
  /** The members in directory order. */
  entries: ZipEntry[];
}

/** Reads the central directory of the archive at `path` of `source`. */
export async function readCentralDirectory(
  source: ByteSource,
  path: string,
  signal?: AbortSignal,
): Promise<CentralDirectory> {
  const fail = (problem: string): never => {
    throw new ZipFormatError(path, problem);
  };
  const { type, size } = await source.info(path);
  if (type !== "file") throw new IsADirectoryError(path);
  if (size === null) fail("its size is not listed");
  const archiveSize = size!;
  const readTail = async (length: number) => {
    const bytes = await source.catFile(path, { start: -length, signal });
    if (bytes.length !== length) {
      fail(`${bytes.length} bytes came where ${length} were asked`);
    }
    return bytes;
  };
  let tail = await readTail(tailLength(archiveSize));
  let end = findEndRecord(tail);
  const longest = Math.min(archiveSize, MAX_END_RECORD + LOCATOR_LENGTH);
  if (end === -1 && tail.length < longest) {
    tail = await readTail(longest);
    end = findEndRecord(tail);
  }
  if (end === -1) {
    fail(
      "no end of central directory record: not a zip archive, or a truncated one",
    );
  }
  const tailStart = archiveSize - tail.length;
  const bytesAt = async (start: number, length: number) => {
    if (start < 0 || start + length > archiveSize) {
      fail(
        `a record at ${start} (${length} bytes) lies outside the ${archiveSize} bytes of the archive`,
      );
    }
    if (start >= tailStart) {
      return tail.subarray(start - tailStart, start - tailStart + length);
    }
    const inTail = Math.max(0, start + length - tailStart);
    const before = length - inTail;
    const bytes = await source.catFile(path, {
      start,
      end: start + before,
      signal,
    });
    if (bytes.length !== before) {
      fail(
        `the archive ended after ${bytes.length} of ${before} bytes at ${start}: truncated`,
      );
    }
    return concat([bytes, tail.subarray(0, inTail)]);
  };

  const endView = view(tail.subarray(end));
  const endRecordAt = tailStart + end;
  let record = {
    disk: endView.getUint16(4, true),
    directoryDisk: endView.getUint16(6, true),
    entriesHere: endView.getUint16(8, true),
    entries: endView.getUint16(10, true),
    directorySize: endView.getUint32(12, true),
    directoryOffset: endView.getUint32(16, true),
    at: endRecordAt,
  };
  const locator = endRecordAt >= LOCATOR_LENGTH
    ? view(await bytesAt(endRecordAt - LOCATOR_LENGTH, LOCATOR_LENGTH))
    : undefined;
  if (locator?.getUint32(0, true) === ZIP64_LOCATOR_SIGNATURE) {
    if (locator.getUint32(4, true) !== 0 || locator.getUint32(16, true) > 1) {
      fail("it spans several disks (multi-disk archives are not read)");
    }
    const pointed = uint64(locator, 8, path);
    const candidate = pointed + ZIP64_END_LENGTH <= endRecordAt - LOCATOR_LENGTH
      ? view(await bytesAt(pointed, ZIP64_END_LENGTH))
      : undefined;
    const zip64 = candidate?.getUint32(0, true) === ZIP64_END_SIGNATURE
      ? candidate
      : undefined;
    if (zip64 !== undefined) {
      record = {
        disk: zip64.getUint32(16, true),
        directoryDisk: zip64.getUint32(20, true),
        entriesHere: uint64(zip64, 24, path),
        entries: uint64(zip64, 32, path),
        directorySize: uint64(zip64, 40, path),
        directoryOffset: uint64(zip64, 48, path),
        at: pointed,
      };
    } else if (saturated(record)) {
      fail(
        `no zip64 end of central directory record at ${pointed}, where the locator points`,
      );
    }
    // Else the "locator" is bytes of a member's name or comment: the end record holds.
  }
  if (record.disk !== 0 || record.directoryDisk !== 0) {
    fail("it spans several disks (multi-disk archives are not read)");
  }
  if (record.entriesHere !== record.entries) {
    fail(
      `its end record counts ${record.entriesHere} entries on its one disk but ${record.entries} in all`,
    );
  }
  const { directoryOffset, directorySize } = record;
  if (directoryOffset + directorySize > record.at) {
    fail(
      `the central directory (${directorySize} bytes at ${directoryOffset}) lies past its end record at ${record.at}`,
    );
  }
  const directory = await bytesAt(directoryOffset, directorySize);
  const entries = parseEntries(
    directory,
    record.entries,
    directoryOffset,
    path,
  );
  placeData(entries, directoryOffset);
  return { entries };
}

/** Bytes of the first (and usually only) read of an archive of `size` bytes. */
export function tailLength(size: number): number {
  const share = Math.min(LARGEST_TAIL, Math.floor(size / TAIL_SHARE));
  return Math.min(size, Math.max(SMALLEST_TAIL, share));
}

/** Whether an end record field is at its largest: the zip64 record must hold the value. */
function saturated(record: {
  disk: number;
  entries: number;
  directorySize: number;
  directoryOffset: number;
}): boolean {
  return record.disk === 0xffff || record.entries === 0xffff ||
    record.directorySize === 0xffffffff ||
    record.directoryOffset === 0xffffffff;
}

/** Index of the last end record signature in `tail` whose record fits; -1 if none. */
function findEndRecord(tail: Uint8Array): number {
  const data = view(tail);
  for (let i = tail.length - 22; i >= 0; i--) {
    if (
      data.getUint32(i, true) === END_SIGNATURE &&
      i + 22 + data.getUint16(i + 20, true) <= tail.length
    ) {
      return i;
    }
  }
  return -1;
}

function parseEntries(
  directory: Uint8Array,
  count: number,
  dataEnd: number,
  path: string,
): ZipEntry[] {
  const data = view(directory);
  const entries: ZipEntry[] = [];
  let at = 0;
  while (entries.length < count) {
    if (at + 46 > directory.length) {
      throw new ZipFormatError(
        path,
        `the central directory ends after ${entries.length} of its ${count} entries: truncated`,
      );
    }
    if (data.getUint32(at, true) !== ENTRY_SIGNATURE) {
      throw new ZipFormatError(
        path,
        `no central directory entry at ${dataEnd + at}: damaged`,
      );
    }
    const nameLength = data.getUint16(at + 28, true);
    const extraLength = data.getUint16(at + 30, true);
    const commentLength = data.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > directory.length) {
      throw new ZipFormatError(path, "the central directory is truncated");
    }
    const rawName = directory.subarray(at + 46, at + 46 + nameLength);
    const extra = directory.subarray(
      at + 46 + nameLength,
      at + 46 + nameLength + extraLength,
    );
    const flags = data.getUint16(at + 8, true);
    const name = memberName(rawName, flags, extraFields(extra, UNICODE_PATH));
    const rawComment = directory.subarray(next - commentLength, next);
    const entry: ZipEntry = {
      name,
      ...(commentLength === 0 ? {} : {
        comment: memberName(
          rawComment,
          flags,
          extraFields(extra, UNICODE_COMMENT),
        ),
      }),
      rawName,
      flags,
      method: data.getUint16(at + 10, true),
      crc32: data.getUint32(at + 16, true),
      compressedSize: data.getUint32(at + 20, true),
      size: data.getUint32(at + 24, true),
      localHeaderOffset: data.getUint32(at + 42, true),
      extraLength,
      dataLimit: dataEnd,
    };
    let disk = data.getUint16(at + 34, true);
    const zip64 = findExtra(extra, ZIP64_EXTRA);
    if (zip64 !== undefined) {
      // Only the fields saturated in the fixed part are there, in this order.
      let field = 0;
      const take = (value: number) => {
        if (value !== 0xffffffff) return value;
        if (field + 8 > zip64.byteLength) {
          throw new ZipFormatError(
            path,
            "its zip64 extra field is too short",
            name,
          );
        }
        field += 8;
        return uint64(view(zip64), field - 8, path);
      };
      entry.size = take(entry.size);
      entry.compressedSize = take(entry.compressedSize);
      entry.localHeaderOffset = take(entry.localHeaderOffset);
      if (disk === 0xffff && field + 4 <= zip64.byteLength) {
        disk = view(zip64).getUint32(field, true);
      }
    }
    if (disk !== 0) {
      throw new ZipFormatError(
        path,
        "it spans several disks (multi-disk archives are not read)",
        name,
      );
    }
    if (entry.localHeaderOffset + 30 + entry.compressedSize > dataEnd) {
      throw new ZipFormatError(
        path,
        `its data (${entry.compressedSize} bytes from ${entry.localHeaderOffset}) lies past the central directory at ${dataEnd}`,
        name,
      );
    }
    entries.push(entry);
    at = next;
  }
  return entries;
}

/**
 * Sets each entry's `dataLimit`, the next local header's offset, and marks
 * entries that share a local header: overlapping members, as a zip bomb
 * makes them, are refused when read.
 */
function placeData(entries: ZipEntry[], dataEnd: number): void {
  const byOffset = entries.toSorted((a, b) =>
    a.localHeaderOffset - b.localHeaderOffset
  );
  let limit = dataEnd;
  for (let i = byOffset.length - 1; i >= 0; i--) {
    const entry = byOffset[i];
    const next = byOffset[i + 1];
    if (next?.localHeaderOffset === entry.localHeaderOffset) {
      entry.sharesHeaderWith = next.name;
      next.sharesHeaderWith ??= entry.name;
    } else if (next !== undefined) {
      limit = next.localHeaderOffset;
    }
    entry.dataLimit = limit;
  }
}

/** The body of the first extra field with header `id`, if `extra` has one. */
export function findExtra(
  extra: Uint8Array,
  id: number,
): Uint8Array | undefined {
  return extraFields(extra, id).next().value ?? undefined;
}

/** The bodies of the extra fields with header `id`, in order. */
function* extraFields(extra: Uint8Array, id: number): Generator<Uint8Array> {
  const data = view(extra);
  for (let at = 0; at + 4 <= extra.length;) {
    const length = data.getUint16(at + 2, true);
    if (data.getUint16(at, true) === id) {
      yield extra.subarray(at + 4, Math.min(extra.length, at + 4 + length));
    }
    at += 4 + length;
  }
}

function uint64(data: DataView, at: number, path: string): number {
  const value = data.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ZipFormatError(
      path,
      `a size or offset of ${value} bytes is beyond reach`,
    );
  }
  return Number(value);
}

/** A little-endian view of `bytes`. */
export function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

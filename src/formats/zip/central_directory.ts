/**
 * A zip archive's central directory, read by range: the end record from the
 * archive's tail (then the zip64 end record when the locator names one),
 * then the directory in one range, usually already inside the tail.
 *
 * @module
 */

import { IsADirectoryError } from "../../base/errors.ts";
import type { ByteSource } from "../source.ts";
import { ZipFormatError } from "./zip_format_error.ts";

/** Most bytes after the end record's signature: its 22 bytes and a longest comment. */
const MAX_END_RECORD = 22 + 0xffff;
/** The zip64 locator stands just before the end record. */
const LOCATOR_LENGTH = 20;
/** The first tail read: enough for the end record and a small directory. */
const FIRST_TAIL = 8192;

const END_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_END_SIGNATURE = 0x06064b50;
const ENTRY_SIGNATURE = 0x02014b50;
const ZIP64_EXTRA = 0x0001;

/** One member as the central directory describes it. */
export interface ZipEntry {
  /** The name as stored (directories end in `/`). */
  name: string;
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
}

/** The members, and where their data must end: the directory's start. */
export interface CentralDirectory {
  /** The members in directory order. */
  entries: ZipEntry[];
  /** Offset of the central directory: every member's data lies before it. */
  dataEnd: number;
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
  let tail = await readTail(Math.min(archiveSize, FIRST_TAIL));
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
    const bytes = await source.catFile(path, {
      start,
      end: start + length,
      signal,
    });
    if (bytes.length !== length) {
      fail(
        `the archive ended after ${bytes.length} of ${length} bytes at ${start}: truncated`,
      );
    }
    return bytes;
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
    const at = uint64(locator, 8, path);
    const zip64 = view(await bytesAt(at, 56));
    if (zip64.getUint32(0, true) !== ZIP64_END_SIGNATURE) {
      fail(
        `no zip64 end of central directory record at ${at}, where the locator points`,
      );
    }
    record = {
      disk: zip64.getUint32(16, true),
      directoryDisk: zip64.getUint32(20, true),
      entriesHere: uint64(zip64, 24, path),
      entries: uint64(zip64, 32, path),
      directorySize: uint64(zip64, 40, path),
      directoryOffset: uint64(zip64, 48, path),
      at,
    };
  }
  if (
    record.disk !== 0 || record.directoryDisk !== 0 ||
    record.entriesHere !== record.entries
  ) {
    fail("it spans several disks (multi-disk archives are not read)");
  }
  const { directoryOffset, directorySize } = record;
  if (directoryOffset + directorySize > record.at) {
    fail(
      `the central directory (${directorySize} bytes at ${directoryOffset}) lies past its end record at ${record.at}`,
    );
  }
  const directory = await bytesAt(directoryOffset, directorySize);
  return {
    entries: parseEntries(directory, record.entries, directoryOffset, path),
    dataEnd: directoryOffset,
  };
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
  const names = new TextDecoder();
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
    const name = names.decode(
      directory.subarray(at + 46, at + 46 + nameLength),
    );
    const entry: ZipEntry = {
      name,
      flags: data.getUint16(at + 8, true),
      method: data.getUint16(at + 10, true),
      crc32: data.getUint32(at + 16, true),
      compressedSize: data.getUint32(at + 20, true),
      size: data.getUint32(at + 24, true),
      localHeaderOffset: data.getUint32(at + 42, true),
      extraLength,
    };
    let disk = data.getUint16(at + 34, true);
    const extra = directory.subarray(
      at + 46 + nameLength,
      at + 46 + nameLength + extraLength,
    );
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
        return uint64(zip64, field - 8, path);
      };
      entry.size = take(entry.size);
      entry.compressedSize = take(entry.compressedSize);
      entry.localHeaderOffset = take(entry.localHeaderOffset);
      if (disk === 0xffff && field + 4 <= zip64.byteLength) {
        disk = zip64.getUint32(field, true);
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

/** The body of the extra field with header `id`, if `extra` has one. */
function findExtra(extra: Uint8Array, id: number): DataView | undefined {
  const data = view(extra);
  for (let at = 0; at + 4 <= extra.length;) {
    const length = data.getUint16(at + 2, true);
    if (data.getUint16(at, true) === id) {
      return view(
        extra.subarray(at + 4, Math.min(extra.length, at + 4 + length)),
      );
    }
    at += 4 + length;
  }
  return undefined;
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

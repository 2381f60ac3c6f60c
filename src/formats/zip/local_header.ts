/**
 * A member's local header, read and held to what the central directory says
 * of it: the same name, method and sizes (other tools extract by the local
 * header, so a disagreement would show them another file), and data that
 * ends before the next member's header.
 *
 * @module
 */

import type { ByteSource } from "../source.ts";
import {
  findExtra,
  view,
  ZIP64_EXTRA,
  type ZipEntry,
} from "./central_directory.ts";

const LOCAL_SIGNATURE = 0x04034b50;
/** Bytes allowed for a local extra field longer than the directory's. */
const EXTRA_SLACK = 64;
const DATA_DESCRIPTOR_FLAG = 1 << 3;

/** Where a member's data starts, and the first of its bytes read with the header. */
export interface LocalHeader {
  dataStart: number;
  data: Uint8Array;
}

/**
 * Reads the local header of `entry` in `path` of `source`, with up to
 * `prefetch` bytes of its data in the same request; `fail` throws the
 * member's error.
 */
export async function readLocalHeader(
  source: ByteSource,
  path: string,
  entry: ZipEntry,
  prefetch: number,
  fail: (problem: string) => never,
  signal?: AbortSignal,
): Promise<LocalHeader> {
  const at = entry.localHeaderOffset;
  const read = async (start: number, end: number) => {
    const bytes = await source.catFile(path, { start, end, signal });
    if (bytes.length !== end - start) {
      fail(`the archive ended ${end - start - bytes.length} bytes early`);
    }
    return bytes;
  };
  const guess = 30 + entry.rawName.length + entry.extraLength + EXTRA_SLACK;
  let bytes = await read(at, Math.min(entry.dataLimit, at + guess + prefetch));
  const header = view(bytes);
  if (bytes.length < 30 || header.getUint32(0, true) !== LOCAL_SIGNATURE) {
    fail(`no local header at ${at}, where the directory points`);
  }
  const nameLength = header.getUint16(26, true);
  const extraLength = header.getUint16(28, true);
  const dataStart = at + 30 + nameLength + extraLength;
  if (dataStart > at + bytes.length) {
    bytes = await read(at, Math.min(entry.dataLimit, dataStart));
    if (dataStart > at + bytes.length) {
      fail(
        `its local header runs past the next member's at ${entry.dataLimit}`,
      );
    }
  }
  const name = bytes.subarray(30, 30 + nameLength);
  if (!sameBytes(name, entry.rawName)) {
    const text = new TextDecoder().decode(name);
    fail(
      `its local header names "${text}": the central directory and the local header disagree, so other tools would extract another file`,
    );
  }
  const method = header.getUint16(8, true);
  if (method !== entry.method) {
    fail(
      `its local header says compression method ${method}, the central directory ${entry.method}`,
    );
  }
  checkSizes(
    header,
    bytes.subarray(30 + nameLength, 30 + nameLength + extraLength),
    entry,
    fail,
  );
  if (dataStart + entry.compressedSize > entry.dataLimit) {
    fail(
      `its data (${entry.compressedSize} bytes from ${dataStart}) runs past ${entry.dataLimit}, where the next member or the central directory starts: members may not overlap`,
    );
  }
  return { dataStart, data: bytes.subarray(dataStart - at) };
}

/** The local sizes (or zip64 sizes) agree with the directory's, unless a data descriptor holds them. */
function checkSizes(
  header: DataView,
  extra: Uint8Array,
  entry: ZipEntry,
  fail: (problem: string) => never,
): void {
  let compressed = header.getUint32(18, true);
  let size = header.getUint32(22, true);
  const zip64 = findExtra(extra, ZIP64_EXTRA);
  if (zip64 !== undefined) {
    const fields = view(zip64);
    let at = 0;
    const take = (value: number) => {
      if (value !== 0xffffffff || at + 8 > fields.byteLength) return value;
      at += 8;
      return Number(fields.getBigUint64(at - 8, true));
    };
    size = take(size);
    compressed = take(compressed);
  }
  if (
    header.getUint16(6, true) & DATA_DESCRIPTOR_FLAG && compressed === 0 &&
    size === 0
  ) {
    return;
  }
  if (compressed !== entry.compressedSize || size !== entry.size) {
    fail(
      `its local header gives its sizes as ${compressed} compressed and ${size} uncompressed, the central directory as ${entry.compressedSize} and ${entry.size}`,
    );
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

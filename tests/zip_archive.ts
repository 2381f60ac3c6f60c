// Zip archives written byte by byte for tests of what no zip tool writes:
// members of gigabytes made from one repeated deflate block, and hostile
// archives (a local header that disagrees with its directory entry, entries
// sharing one local header).

import zlib from "node:zlib";

/** One member as written; `data` is its compressed bytes. */
export interface MemberSpec {
  name: string;
  method: number;
  data: Uint8Array;
  size: number;
  crc32: number;
  /** The name its local header gives, when not `name`. */
  localName?: string;
  /** The uncompressed size its local header gives, when not `size`. */
  localSize?: number;
  /** Writes no local header or data: the entry points at this earlier member's. */
  sharesHeaderOf?: number;
}

/** A deflated member of `block` repeated `times` times: one block compressed, its bytes repeated. */
export function repeatedDeflate(
  name: string,
  block: Uint8Array,
  times: number,
): MemberSpec {
  // After a full flush no later block refers to an earlier one's bytes.
  const once = zlib.deflateRawSync(block, {
    finishFlush: zlib.constants.Z_FULL_FLUSH,
  });
  const data = new Uint8Array(once.length * times + 2);
  for (let i = 0; i < times; i++) data.set(once, i * once.length);
  data.set([3, 0], once.length * times); // an empty final block
  let crc = 0;
  for (let i = 0; i < times; i++) crc = zlib.crc32(block, crc);
  return { name, method: 8, data, size: block.length * times, crc32: crc };
}

const ZIP64_LIMIT = 0xffffffff;

/** The archive of `members`, with zip64 fields where a size or offset needs them. */
export function zipArchive(members: MemberSpec[]): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (const member of members) {
    if (member.sharesHeaderOf !== undefined) {
      offsets.push(offsets[member.sharesHeaderOf]);
      continue;
    }
    offsets.push(at);
    const name = encoder.encode(member.localName ?? member.name);
    const size = member.localSize ?? member.size;
    const big = size >= ZIP64_LIMIT || member.data.length >= ZIP64_LIMIT;
    const header = new DataView(
      new ArrayBuffer(30 + name.length + (big ? 20 : 0)),
    );
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, big ? 45 : 20, true);
    header.setUint16(8, member.method, true);
    header.setUint32(14, member.crc32, true);
    header.setUint32(18, big ? ZIP64_LIMIT : member.data.length, true);
    header.setUint32(22, big ? ZIP64_LIMIT : size, true);
    header.setUint16(26, name.length, true);
    header.setUint16(28, big ? 20 : 0, true);
    new Uint8Array(header.buffer).set(name, 30);
    if (big) {
      const extra = 30 + name.length;
      header.setUint16(extra, 1, true);
      header.setUint16(extra + 2, 16, true);
      header.setBigUint64(extra + 4, BigInt(size), true);
      header.setBigUint64(extra + 12, BigInt(member.data.length), true);
    }
    parts.push(new Uint8Array(header.buffer), member.data);
    at += header.byteLength + member.data.length;
  }
  const directoryStart = at;
  members.forEach((member, i) => {
    const name = encoder.encode(member.name);
    const fields = [
      member.size >= ZIP64_LIMIT ? member.size : undefined,
      member.data.length >= ZIP64_LIMIT ? member.data.length : undefined,
      offsets[i] >= ZIP64_LIMIT ? offsets[i] : undefined,
    ].filter((value) => value !== undefined);
    const extraLength = fields.length > 0 ? 4 + 8 * fields.length : 0;
    const entry = new DataView(
      new ArrayBuffer(46 + name.length + extraLength),
    );
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, 45, true);
    entry.setUint16(6, fields.length > 0 ? 45 : 20, true);
    entry.setUint16(10, member.method, true);
    entry.setUint32(16, member.crc32, true);
    entry.setUint32(20, Math.min(member.data.length, ZIP64_LIMIT), true);
    entry.setUint32(24, Math.min(member.size, ZIP64_LIMIT), true);
    entry.setUint16(28, name.length, true);
    entry.setUint16(30, extraLength, true);
    entry.setUint32(42, Math.min(offsets[i], ZIP64_LIMIT), true);
    new Uint8Array(entry.buffer).set(name, 46);
    if (extraLength > 0) {
      const extra = 46 + name.length;
      entry.setUint16(extra, 1, true);
      entry.setUint16(extra + 2, 8 * fields.length, true);
      fields.forEach((value, f) =>
        entry.setBigUint64(extra + 4 + 8 * f, BigInt(value!), true)
      );
    }
    parts.push(new Uint8Array(entry.buffer));
    at += entry.byteLength;
  });
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, members.length, true);
  end.setUint16(10, members.length, true);
  end.setUint32(12, at - directoryStart, true);
  end.setUint32(16, directoryStart, true);
  parts.push(new Uint8Array(end.buffer));
  const archive = new Uint8Array(at + 22);
  let offset = 0;
  for (const part of parts) {
    archive.set(part, offset);
    offset += part.length;
  }
  return archive;
}

/**
 * HDF5's Fletcher-32 checksum (the `fletcher32` filter): 16-bit big-endian
 * words summed, the checksum stored little-endian after the chunk.
 *
 * @module
 */

/** The checksum of `bytes` as HDF5 computes it (`H5_checksum_fletcher32`). */
export function fletcher32(bytes: Uint8Array): number {
  let sum1 = 0;
  let sum2 = 0;
  const words = bytes.length >> 1;
  for (let i = 0; i < words;) {
    const end = Math.min(words, i + 360);
    for (; i < end; i++) {
      sum1 += (bytes[2 * i] << 8) | bytes[2 * i + 1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (bytes.length % 2) {
    sum1 += bytes[bytes.length - 1] << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}

/** Whether `chunk` (its last 4 bytes the stored checksum) is intact. */
export function fletcher32Holds(chunk: Uint8Array): boolean {
  if (chunk.length < 4) return false;
  const stored = new DataView(
    chunk.buffer,
    chunk.byteOffset + chunk.length - 4,
    4,
  ).getUint32(0, true);
  return fletcher32(chunk.subarray(0, chunk.length - 4)) === stored;
}

/**
 * CRC-32 (ISO 3309, as zip writes it), eight bytes at a time through eight
 * tables, so that it runs where `node:zlib` does not (a browser) at the pace
 * of inflating.
 *
 * @module
 */

const TABLES = new Uint32Array(256 * 8);
for (let n = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  TABLES[n] = c >>> 0;
}
for (let n = 0; n < 256; n++) {
  for (let t = 256; t < TABLES.length; t += 256) {
    const before = TABLES[t - 256 + n];
    TABLES[t + n] = (before >>> 8) ^ TABLES[before & 0xff];
  }
}

/** The CRC-32 of `bytes` following a CRC of the bytes before (`0` to start). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  const t = TABLES;
  let c = ~previous;
  let i = 0;
  for (const last = bytes.length - 8; i <= last; i += 8) {
    const a = c ^
      (bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | bytes[i + 3] << 24);
    c = t[1792 + (a & 0xff)] ^ t[1536 + ((a >>> 8) & 0xff)] ^
      t[1280 + ((a >>> 16) & 0xff)] ^ t[1024 + (a >>> 24)] ^
      t[768 + bytes[i + 4]] ^ t[512 + bytes[i + 5]] ^ t[256 + bytes[i + 6]] ^
      t[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

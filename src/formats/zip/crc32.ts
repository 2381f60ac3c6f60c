/**
 * CRC-32 (ISO 3309, as zip writes it), table-driven, so that it runs where
 * `node:zlib` does not (a browser).
 *
 * @module
 */

const TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});

/** The CRC-32 of `bytes` following a CRC of the bytes before (`0` to start). */
export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = ~previous;
  for (let i = 0; i < bytes.length; i++) {
    c = TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  }
  return ~c >>> 0;
}

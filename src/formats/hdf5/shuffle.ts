/**
 * HDF5's (and numcodecs') shuffle filter undone: the stored bytes hold byte
 * 0 of every element, then byte 1, and so on; the leftover bytes of a
 * length that is not a whole number of elements come last, as they are.
 *
 * @module
 */

/** Whether a 32-bit word written here lands in memory least significant byte first. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** `data` unshuffled for elements of `size` bytes, in a new array (`data` itself when there is nothing to do). */
export function unshuffle(data: Uint8Array, size: number): Uint8Array {
  const count = Math.floor(data.length / size);
  if (size <= 1 || count <= 1) return data;
  const out = new Uint8Array(data.length);
  if (LITTLE_ENDIAN && size % 4 === 0) byWords(data, out, size, count);
  else if (LITTLE_ENDIAN && size === 2) byHalfWords(data, out, count);
  else byBytes(data, out, size, count);
  out.set(data.subarray(count * size), count * size);
  return out;
}

/** Four byte planes at a time into whole 32-bit words: a quarter of the stores of `byBytes`. */
function byWords(
  data: Uint8Array,
  out: Uint8Array,
  size: number,
  count: number,
): void {
  const words = size / 4;
  const out32 = new Int32Array(out.buffer, 0, count * words);
  for (let w = 0; w < words; w++) {
    const plane = (p: number) =>
      data.subarray((4 * w + p) * count, (4 * w + p + 1) * count);
    const [b0, b1, b2, b3] = [plane(0), plane(1), plane(2), plane(3)];
    for (let i = 0, o = w; i < count; i++, o += words) {
      out32[o] = b0[i] | (b1[i] << 8) | (b2[i] << 16) | (b3[i] << 24);
    }
  }
}

function byHalfWords(data: Uint8Array, out: Uint8Array, count: number): void {
  const out16 = new Uint16Array(out.buffer, 0, count);
  const b0 = data.subarray(0, count);
  const b1 = data.subarray(count, 2 * count);
  for (let i = 0; i < count; i++) out16[i] = b0[i] | (b1[i] << 8);
}

function byBytes(
  data: Uint8Array,
  out: Uint8Array,
  size: number,
  count: number,
): void {
  for (let j = 0; j < size; j++) {
    const plane = data.subarray(j * count, (j + 1) * count);
    for (let i = 0, o = j; i < count; i++, o += size) out[o] = plane[i];
  }
}

import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { unshuffle } from "../src/formats/hdf5/shuffle.ts";

/** The shuffle filter as HDF5 defines it: byte `j` of every element, then `j + 1`; the leftover bytes last. */
function shuffle(data: Uint8Array, size: number): Uint8Array {
  const count = Math.floor(data.length / size);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < count; i++) {
    for (let j = 0; j < size; j++) out[j * count + i] = data[i * size + j];
  }
  out.set(data.subarray(count * size), count * size);
  return out;
}

Deno.test("unshuffle gives back the elements of every size, leftover bytes kept", () => {
  for (const size of [2, 3, 4, 5, 8, 12, 16]) {
    for (const length of [2 * size, 1000 * size, 1000 * size + size - 1]) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 131 + 7) % 256);
      deepStrictEqual(unshuffle(shuffle(data, size), size), data, `${size}`);
    }
  }
});

Deno.test("unshuffle leaves one-byte elements and a single element as they are", () => {
  const data = Uint8Array.from([1, 2, 3, 4, 5]);
  strictEqual(unshuffle(data, 1), data);
  strictEqual(unshuffle(data, 4), data);
});

Deno.test("unshuffled floats read back as the floats they were", () => {
  const values = Float64Array.from({ length: 999 }, (_, i) => i / 7 - 50);
  const bytes = new Uint8Array(values.buffer);
  const back = unshuffle(shuffle(bytes, 8), 8);
  deepStrictEqual(new Float64Array(back.buffer), values);
});

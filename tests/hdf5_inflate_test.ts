import { deepStrictEqual, rejects } from "node:assert/strict";
import { deflateSync } from "node:zlib";
import {
  inflateAtMost,
  InflateError,
  streamInflate,
} from "../src/formats/hdf5/inflate.ts";

const BYTES = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251);
const DEFLATED = new Uint8Array(deflateSync(BYTES));

for (
  const [how, inflate] of [["node:zlib", inflateAtMost], [
    "a DecompressionStream",
    streamInflate,
  ]] as const
) {
  Deno.test(`an HDF5 chunk inflated with ${how} stops past its declared size and names it`, async () => {
    const inflated = await inflate(DEFLATED, BYTES.length);
    deepStrictEqual(inflated, BYTES);
    // Its own memory, all of it: nothing shared, nothing more.
    deepStrictEqual(inflated.buffer.byteLength, BYTES.length);
    await rejects(
      inflate(DEFLATED, BYTES.length - 1),
      (error: Error) =>
        error instanceof InflateError && error.tooLarge &&
        error.message ===
          `inflates past its declared ${BYTES.length - 1} bytes`,
    );
    await rejects(
      inflate(BYTES.subarray(0, 100), BYTES.length),
      (error: Error) =>
        error instanceof InflateError && !error.tooLarge &&
        error.message.startsWith("not a zlib stream"),
    );
  });
}

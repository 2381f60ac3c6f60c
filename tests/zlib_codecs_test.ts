import { deepStrictEqual, equal, throws } from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { registry, UnsupportedError } from "zarrita";
import { useSyncZlibCodecs } from "../src/zarr/zlib_codecs.ts";

type Decoder = { decode(bytes: Uint8Array): Uint8Array; encode(): never };

/** Runs `test` with the synchronous codecs registered, then restores zarrita's. */
async function withSyncCodecs(test: () => Promise<void>) {
  const before = new Map(registry);
  await useSyncZlibCodecs();
  try {
    await test();
  } finally {
    registry.clear();
    for (const [name, entry] of before) registry.set(name, entry);
  }
}

async function codec(name: string): Promise<Decoder> {
  const entry = await registry.get(name)!();
  return entry.fromConfig({}, {} as never) as unknown as Decoder;
}

async function compressed(
  format: CompressionFormat,
  bytes: Uint8Array<ArrayBuffer>,
) {
  const stream = new Blob([bytes]).stream().pipeThrough(
    new CompressionStream(format),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const BYTES = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 251);

Deno.test("the synchronous codecs take gzip and zlib under both names and decode what CompressionStream wrote", () =>
  withSyncCodecs(async () => {
    for (const [name, format] of [["gzip", "gzip"], ["zlib", "deflate"]]) {
      const input = await compressed(format as CompressionFormat, BYTES);
      for (const registered of [name, `numcodecs.${name}`]) {
        const decoder = await codec(registered);
        const out = decoder.decode(input);
        deepStrictEqual(out, BYTES);
        equal(out.buffer.byteLength, out.byteLength, "owns its buffer");
        throws(() => decoder.encode(), UnsupportedError);
      }
    }
    const short = (await codec("zlib")).decode(
      await compressed("deflate", BYTES.slice(0, 10)),
    );
    deepStrictEqual(short, BYTES.subarray(0, 10));
    equal(short.buffer.byteLength, 10, "a short result is copied out");
  }));

Deno.test("multi-member gzip is read to the end; corrupt or cut input throws", () =>
  withSyncCodecs(async () => {
    const gzip = await codec("gzip");
    const twoMembers = new Uint8Array([
      ...gzipSync(BYTES.subarray(0, 40)),
      ...gzipSync(BYTES.subarray(40, 90)),
    ]);
    deepStrictEqual(gzip.decode(twoMembers), BYTES.subarray(0, 90));
    throws(() => gzip.decode(new Uint8Array([1, 2, 3, 4])), /header check/);
    const whole = gzipSync(BYTES);
    throws(
      () => gzip.decode(whole.subarray(0, whole.length >> 1)),
      /end of file/,
    );
  }));

import * as zarr from "zarrita";
import {
  deepStrictEqual,
  equal,
  match,
  strictEqual,
  throws,
} from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  syncZlibStore,
  useSyncZlibCodecs,
  withSyncZlibCodecs,
} from "../src/zarr/zlib_codecs.ts";
import { RepoFs } from "../mod.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { startEmulator } from "../emulator.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { registry } from "zarrita";

type Decoder = { decode(bytes: Uint8Array): Uint8Array; encode(): never };

async function codec(name: string): Promise<Decoder> {
  equal(await useSyncZlibCodecs(), true);
  const entry = await zarr.registry.get(name)!();
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

Deno.test("the synchronous codecs take gzip and zlib under their own names and decode what CompressionStream wrote", async () => {
  for (const [name, format] of [["gzip", "gzip"], ["zlib", "deflate"]]) {
    const input = await compressed(format as CompressionFormat, BYTES);
    for (
      const registered of [
        `${name} (node:zlib)`,
        `numcodecs.${name} (node:zlib)`,
      ]
    ) {
      const decoder = await codec(registered);
      const out = decoder.decode(input);
      deepStrictEqual(out, BYTES);
      equal(out.buffer.byteLength, out.byteLength, "owns its buffer");
      throws(() => decoder.encode(), zarr.UnsupportedError);
    }
  }
  const short = (await codec("zlib (node:zlib)")).decode(
    await compressed("deflate", BYTES.slice(0, 10)),
  );
  deepStrictEqual(short, BYTES.subarray(0, 10));
  equal(short.buffer.byteLength, 10, "a short result is copied out");
});

Deno.test("zarrita's own gzip and zlib stay registered under their names", async () => {
  const names = ["gzip", "zlib", "numcodecs.gzip", "numcodecs.zlib"];
  const before = names.map((name) => zarr.registry.get(name));
  await useSyncZlibCodecs();
  deepStrictEqual(names.map((name) => zarr.registry.get(name)), before);
});

Deno.test("multi-member gzip is read to the end; corrupt or cut input throws", async () => {
  const gzip = await codec("gzip (node:zlib)");
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
});

Deno.test("getArray inflates with node:zlib; the application's zarrita keeps DecompressionStream", async () => {
  const temperature = ramp(Float32Array, 12 * 5, 0.5, -3);
  const pressure = ramp(Float64Array, 12 * 5, 1.5, 1000);
  await using emu = await startEmulator({
    files: {
      ...await buildZarrStore([
        {
          path: "t",
          data: temperature,
          shape: [12, 5],
          chunks: [5, 5],
          compressor: "gzip",
        },
        {
          path: "p",
          data: pressure,
          shape: [12, 5],
          chunks: [5, 2],
          compressor: "zlib",
        },
      ], { format: 2, prefix: "v2.zarr" }),
      ...await buildZarrStore([
        {
          path: "t",
          data: temperature,
          shape: [12, 5],
          chunks: [2, 5],
          shard: [2, 1],
          compressor: "gzip",
        },
      ], { format: 3, prefix: "v3.zarr" }),
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const streams = globalThis.DecompressionStream;
  globalThis.DecompressionStream = class {
    constructor() {
      throw new Error("DecompressionStream was used");
    }
  } as unknown as typeof DecompressionStream;
  try {
    deepStrictEqual((await getArray(fs, "v2.zarr", "t")).data, temperature);
    deepStrictEqual((await getArray(fs, "v2.zarr", "p")).data, pressure);
    deepStrictEqual((await getArray(fs, "v3.zarr", "t")).data, temperature);
    const own = await zarr.open(
      zarr.root(zarrStore(fs, "v2.zarr")).resolve("t"),
      { kind: "array" },
    );
    const failure = await zarr.get(own).then(() => undefined, (e) => e);
    match(String(failure), /numcodecs\.gzip/);
    match(
      String(failure.cause),
      /Failed to decode gzip/,
      "zarrita's own codec",
    );
  } finally {
    globalThis.DecompressionStream = streams;
  }
});

Deno.test("the synchronous codecs stop at the bytes the chunk's shape holds and say so", async () => {
  equal(await useSyncZlibCodecs(), true);
  const input = await compressed("deflate", new Uint8Array(1 << 20));
  const entry = await zarr.registry.get("zlib (node:zlib)")!();
  const fits = entry.fromConfig({}, {
    shape: [1024, 256],
    dataType: "float32",
  } as never) as unknown as Decoder;
  equal(fits.decode(input).length, 1 << 20);
  const small = entry.fromConfig({}, {
    shape: [10],
    dataType: "uint8",
  } as never) as unknown as Decoder;
  throws(
    () => small.decode(input),
    /a zlib chunk inflates past the 10 bytes its shape holds/,
  );
});

Deno.test("sync zlib codecs are registered under their own names", async () => {
  const zarritasOwn = registry.get("gzip");
  strictEqual(await useSyncZlibCodecs(), true);
  strictEqual(registry.get("gzip"), zarritasOwn);
  const Gzip = await registry.get("gzip (node:zlib)")!();
  const bytes = new Uint8Array(
    await new Response(
      new Blob(["hello"]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const codec = Gzip.fromConfig({}, {} as never) as {
    decode(b: Uint8Array): Uint8Array;
  };
  strictEqual(new TextDecoder().decode(codec.decode(bytes)), "hello");
});

Deno.test("array metadata gets the sync zlib codecs", () => {
  deepStrictEqual(
    withSyncZlibCodecs({
      zarr_format: 2,
      compressor: { id: "gzip", level: 1 },
      filters: null,
    }),
    {
      zarr_format: 2,
      compressor: { id: "gzip (node:zlib)", level: 1 },
      filters: null,
    },
  );
  deepStrictEqual(
    withSyncZlibCodecs({
      codecs: [{ name: "bytes" }, { name: "gzip" }],
      attributes: { name: "gzip" },
    }),
    {
      codecs: [{ name: "bytes" }, { name: "gzip (node:zlib)" }],
      attributes: { name: "gzip" },
    },
  );
});

Deno.test("the sync zlib store rewrites array metadata", async () => {
  const zarray = { zarr_format: 2, compressor: { id: "zlib" } };
  const store = await syncZlibStore({
    get: (key: string) =>
      Promise.resolve(
        new TextEncoder().encode(
          key.endsWith(".zarray") ? JSON.stringify(zarray) : "{}",
        ),
      ),
  });
  const bytes = await store.get("/t/.zarray");
  deepStrictEqual(JSON.parse(new TextDecoder().decode(bytes)).compressor, {
    id: "zlib (node:zlib)",
  });
});

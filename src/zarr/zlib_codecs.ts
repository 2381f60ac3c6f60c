/**
 * gzip and zlib chunks inflated with `node:zlib` in one call. zarrita's own
 * codecs pipe every chunk through a `DecompressionStream`, which costs more
 * CPU per chunk: 2 to 4 times as much for a 2 KiB chunk, 1.3 to 1.6 times
 * for a 64 KiB one. zarrita's codec registry is global to a thread's copy
 * of zarrita, which is the application's too, so these codecs are
 * registered under names of their own, and only the arrays that `getArray`
 * opens are told to use them: their metadata is renamed on the way in (see
 * {@linkcode syncZlibStore}). Where there is no `node:zlib` (a browser),
 * zarrita's own codecs decode.
 *
 * @module
 */

import { type AsyncReadable, registry, UnsupportedError } from "zarrita";
import { inflateOptions } from "../formats/inflate_options.ts";

type Inflate = (
  bytes: Uint8Array,
  options: { maxOutputLength?: number; chunkSize?: number },
) => Uint8Array;

/** The name each codec is registered under, by the codec it stands in for. */
const STAND_INS = new Map([
  ["gzip", "gzip (node:zlib)"],
  ["numcodecs.gzip", "gzip (node:zlib)"],
  ["zlib", "zlib (node:zlib)"],
  ["numcodecs.zlib", "zlib (node:zlib)"],
]);

/** Bytes per element of zarrita's data types, where fixed. */
const ELEMENT_BYTES: Record<string, number> = {
  bool: 1,
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  float16: 2,
  int32: 4,
  uint32: 4,
  float32: 4,
  int64: 8,
  uint64: 8,
  float64: 8,
};

/**
 * The bytes a chunk of `meta` (the chunk metadata zarrita gives a codec)
 * decodes to; `undefined` where its data type has no fixed size.
 */
export function chunkByteLimit(
  meta: { shape?: readonly number[]; dataType?: string } | undefined,
): number | undefined {
  const type = meta?.dataType;
  if (!Array.isArray(meta?.shape) || typeof type !== "string") return;
  const fixed = /^v2:([SU])(\d+)$/.exec(type);
  const size = fixed
    ? Number(fixed[2]) * (fixed[1] === "U" ? 4 : 1)
    : ELEMENT_BYTES[type];
  if (size === undefined) return;
  return meta.shape.reduce((a, b) => a * b, 1) * size;
}

/**
 * A bytes-to-bytes codec that decodes with `inflate`, stopping past the
 * bytes the chunk's shape holds; encoding is refused.
 */
function inflatingCodec(name: string, inflate: Inflate) {
  return class {
    readonly kind = "bytes_to_bytes" as const;
    constructor(readonly limit?: number) {}
    static fromConfig(
      _config: unknown,
      meta?: { shape?: readonly number[]; dataType?: string },
    ) {
      return new this(chunkByteLimit(meta));
    }
    encode(): never {
      throw new UnsupportedError(`${name} encode`);
    }
    decode(bytes: Uint8Array): Uint8Array {
      let out: Uint8Array;
      try {
        out = inflate(
          bytes,
          this.limit === undefined
            ? {}
            : inflateOptions(bytes.length, this.limit),
        );
      } catch (error) {
        if ((error as { code?: string }).code !== "ERR_BUFFER_TOO_LARGE") {
          throw error;
        }
        throw new Error(
          `a ${name} chunk inflates past the ${this.limit} bytes its shape holds`,
          { cause: error },
        );
      }
      // A Buffer may be a view into memory it shares; a result that moves
      // to another thread must own its whole buffer.
      return out.byteLength === out.buffer.byteLength
        ? new Uint8Array(out.buffer, 0, out.byteLength)
        : new Uint8Array(out);
    }
  };
}

let registered: Promise<boolean> | undefined;

/**
 * Registers the `node:zlib` codecs in this thread's copy of zarrita, under
 * their own names (`gzip (node:zlib)`, `zlib (node:zlib)`, and the same
 * with `numcodecs.` before, as zarrita names a v2 compressor); zarrita's own
 * `gzip` and `zlib` are left as they are. Multi-member gzip is read to the
 * end, as Python's `gzip` module (numcodecs) reads it. Resolves to `false`,
 * registering nothing, where `node:zlib` cannot be loaded or is an empty
 * stand-in (as browser bundles make it). Registers once per thread.
 */
export function useSyncZlibCodecs(): Promise<boolean> {
  return registered ??= register();
}

async function register(): Promise<boolean> {
  let zlib: Partial<typeof import("node:zlib")>;
  try {
    zlib = await import("node:zlib");
  } catch {
    return false;
  }
  const { gunzipSync, inflateSync } = zlib;
  if (typeof gunzipSync !== "function" || typeof inflateSync !== "function") {
    return false;
  }
  const codecs = {
    "gzip (node:zlib)": inflatingCodec("gzip", gunzipSync),
    "zlib (node:zlib)": inflatingCodec("zlib", inflateSync),
  };
  for (const [name, codec] of Object.entries(codecs)) {
    registry.set(name, () => Promise.resolve(codec));
    registry.set(`numcodecs.${name}`, () => Promise.resolve(codec));
  }
  return true;
}

/**
 * Array metadata (the JSON of a v2 `.zarray` or a v3 `zarr.json`) with
 * every gzip and zlib codec renamed to its `node:zlib` stand-in: the `id`
 * of a v2 `compressor` or filter, and the `name` of a v3 codec, those
 * inside a sharding codec included. Nothing else changes.
 *
 * @param metadata parsed array metadata
 */
export function withSyncZlibCodecs(metadata: unknown): unknown {
  if (!isRecord(metadata)) return metadata;
  const renamed = { ...metadata };
  if (isRecord(metadata.compressor)) {
    renamed.compressor = codecRenamed(metadata.compressor);
  }
  for (const list of ["filters", "codecs", "index_codecs"]) {
    const codecs = metadata[list];
    if (Array.isArray(codecs)) renamed[list] = codecs.map(codecRenamed);
  }
  return renamed;
}

/** One codec's entry, renamed, with any codecs of its configuration. */
function codecRenamed(codec: unknown): unknown {
  if (!isRecord(codec)) return codec;
  const renamed = { ...codec };
  for (const key of ["id", "name"]) {
    const standIn = STAND_INS.get(codec[key] as string);
    if (standIn !== undefined) renamed[key] = standIn;
  }
  if (isRecord(codec.configuration)) {
    renamed.configuration = withSyncZlibCodecs(codec.configuration);
  }
  return renamed;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `store`, except that array metadata (`.zarray`, `zarr.json`) comes with
 * {@linkcode withSyncZlibCodecs} applied, so that arrays opened through it
 * inflate gzip and zlib chunks with `node:zlib`. `store` itself where the
 * codecs cannot be registered (see {@linkcode useSyncZlibCodecs}).
 *
 * @param store a zarrita store
 */
export async function syncZlibStore(
  store: AsyncReadable,
): Promise<AsyncReadable> {
  if (!await useSyncZlibCodecs()) return store;
  return {
    async get(key, options) {
      const bytes = await store.get(key, options);
      if (bytes === undefined || !/(^|\/)(\.zarray|zarr\.json)$/.test(key)) {
        return bytes;
      }
      let metadata: unknown;
      try {
        metadata = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        return bytes;
      }
      return new TextEncoder().encode(
        JSON.stringify(withSyncZlibCodecs(metadata)),
      );
    },
    getRange: store.getRange?.bind(store),
  };
}

/**
 * gzip and zlib codecs for zarrita that inflate with `node:zlib` in one
 * call. zarrita's own pipe every chunk through a `DecompressionStream`,
 * which inflates just as synchronously but costs more CPU per chunk.
 * zarrita's codec registry is global to a thread's copy of zarrita, which
 * on the main thread is the application's too, so only `RepoFsPool`
 * workers, whose zarrita is their own, register these. Where there is no
 * `node:zlib` (a browser), zarrita's own stay.
 *
 * @module
 */

import { registry, UnsupportedError } from "zarrita";

type Inflate = (bytes: Uint8Array) => Uint8Array;

/** A bytes-to-bytes codec that decodes with `inflate`; encoding is refused. */
function inflatingCodec(name: string, inflate: Inflate) {
  return class {
    readonly kind = "bytes_to_bytes" as const;
    static fromConfig() {
      return new this();
    }
    encode(): never {
      throw new UnsupportedError(`${name} encode`);
    }
    decode(bytes: Uint8Array): Uint8Array {
      const out = inflate(bytes);
      // A Buffer may be a view into memory it shares; a result that moves
      // to another thread must own its whole buffer.
      return out.byteLength === out.buffer.byteLength
        ? new Uint8Array(out.buffer, 0, out.byteLength)
        : new Uint8Array(out);
    }
  };
}

/**
 * Makes zarrita decode `gzip` and `zlib` chunks (Zarr v3 names and the
 * `numcodecs.*` names of v2 compressors) with the synchronous codecs of
 * this module, in this thread's copy of zarrita. Multi-member gzip is
 * read to the end, as Python's `gzip` module (numcodecs) reads it.
 * Resolves to `false`, registering nothing, where `node:zlib` cannot be
 * loaded or is an empty stand-in (as browser bundles make it).
 *
 * @example
 * ```ts
 * import { registry } from "zarrita";
 * import { useSyncZlibCodecs } from "./zlib_codecs.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(await useSyncZlibCodecs(), true);
 * const Gzip = await registry.get("gzip")!();
 * const bytes = new Uint8Array(
 *   await new Response(
 *     new Blob(["hello"]).stream().pipeThrough(new CompressionStream("gzip")),
 *   ).arrayBuffer(),
 * );
 * const codec = Gzip.fromConfig({}, {} as never) as { decode(b: Uint8Array): Uint8Array };
 * strictEqual(new TextDecoder().decode(codec.decode(bytes)), "hello");
 * ```
 */
export async function useSyncZlibCodecs(): Promise<boolean> {
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
  const gzip = inflatingCodec("gzip", gunzipSync);
  const deflate = inflatingCodec("zlib", inflateSync);
  for (const prefix of ["", "numcodecs."]) {
    registry.set(`${prefix}gzip`, () => Promise.resolve(gzip));
    registry.set(`${prefix}zlib`, () => Promise.resolve(deflate));
  }
  return true;
}

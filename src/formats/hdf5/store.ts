/**
 * `hdf5Store`: a zarrita store presenting an HDF5 or NetCDF4 file of a
 * dataset as a Zarr v2 group, its metadata read by range on first use.
 *
 * @module
 */

import { rangeOf } from "../range_of.ts";
import type { AsyncReadable } from "zarrita";
import type { ByteSource } from "../source.ts";
import { keptMetadata } from "../kept_metadata.ts";
import { type ChunkRef, zarrChunks } from "./chunk_index.ts";
import {
  checkStoredSize,
  type ChunkPlace,
  decodeChunk,
} from "./chunk_decode.ts";
import { Hdf5FormatError, Hdf5UnsupportedError } from "./errors.ts";
import { FilterId } from "./filters.ts";
import { fletcher32Holds } from "./fletcher32.ts";
import {
  type Hdf5Problem,
  type MappedArray,
  readZarrView,
  type ZarrView,
} from "./zarr_view.ts";
import type { JsonValue } from "./values.ts";
import { decodeStrings, encodeVlenUtf8 } from "./strings.ts";

/**
 * A zarrita store over an HDF5 or NetCDF4 file.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { type Hdf5Store, hdf5Store } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // t.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] and the
 * // variable-length strings `names`; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+v0cHHj5ZLiYubgYICB/1BwWwrCN4CK+77drOrv4RLEpHBWkCMbGVcwCSFrhAEu" +
 *     "JgZGBgY2HgYgxVhyGGoMmwCIz5qXmJtafJ4TKmjCQBZYJatrCHYS0AJGEQYGJkZGRmaoHJwWYWAU" +
 *     "VJBnYAHzFBjEORjE64EsVqDrmLk4gC5nZjzPCFHLAzN4A8OQA2suO99gYDhgD/SjAwNDggPIS7e5" +
 *     "IHJMUAzjMzKMglEwCkbBKBgFo2C4APS2EBMDov6HtYUkGRkZgE0wMIa0AzggbSEmSFvoNrRxoDCE" +
 *     "20Lzf/0WdHf29wF7RQC1zQMLi6RkVD5MPhHNrAP8o+lqFIyCUTAKRsEoGAWjYBSMglEwCkbBKBis" +
 *     "AADpYE4r2xoAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "t.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const store: Hdf5Store = hdf5Store(fs, "t.h5");
 * const t = await zarr.open(zarr.root(store).resolve("t"), { kind: "array" });
 * deepStrictEqual((await zarr.get(t)).data, new Float32Array([1.5, 2.5, 3.5]));
 * ```
 */
export interface Hdf5Store {
  /** A metadata document or a chunk; `undefined` for a missing key or an unwritten chunk. */
  get(
    key: `/${string}`,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined>;
  /** Part of what `get` gives. */
  getRange(
    key: `/${string}`,
    range: { offset: number; length: number } | { suffixLength: number },
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined>;
  /** The variables (and attributes) left out of the Zarr group, each with why. */
  problems(): Promise<Hdf5Problem[]>;
}

/**
 * A zarrita store presenting the HDF5 or NetCDF4 file `path` of `source`
 * as a Zarr v2 group: its groups, its datasets as arrays, their
 * attributes, and NetCDF dimensions as `_ARRAY_DIMENSIONS`. Each chunk is
 * read as one range of the file and served decoded (deflate and shuffle
 * undone here, inflating no further than the bytes the chunk's shape
 * holds: past that, or stored in more bytes than its values can take, it is
 * an `Hdf5FormatError` naming the file and variable). Strings (fixed-length
 * and variable-length) are served as `vlen-utf8` objects, so zarrita gives
 * JS strings; an enum is its base integer type, with its names in the CF
 * attributes `flag_values` and `flag_meanings`; committed datatypes are
 * resolved. The file's metadata is read on the first `get`, each level of
 * the hierarchy and of a chunk index at once; a dataset's chunk index is
 * read the first time one of its chunks is asked for. A variable or
 * attribute that cannot be mapped (compound, reference, opaque and
 * variable-length sequence types, unsupported filters, an attribute that
 * cannot be read) is left out and named by `problems()`; the rest of the
 * file reads.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { hdf5Store } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // t.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] in degC along the
 * // dimension scale `time`, and the variable-length strings `names` = ["a", "bc"];
 * // gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+2ZMUsjQRTH38wmcW9ZycaLhKhgDrSysbtG0LBZL8E1gaxaCV40iwQvscgeeNU1" +
 *     "NnbHFVdcaWXpRxDuA9hcF7D1G9jqvJ0Zs0ZBQRCE94NhMjNv3psZUvz570m1sjpuTVmGaYLmVrEz" +
 *     "I8eLav7MKP5pVCtNXrrNmQfJdsQnkhs1FgcGkMmC6FJRpxv+U5kyNk6x6PKDGjs4Tvda3bAfTKug" +
 *     "T/A8m8e5//GRRDaWB+CMMUOt3fc2MEfcLhWPSpAWpzIsU5zYYJdMxtgqdnICw0bvYS9gtgyYuOj6" +
 *     "5SCAjyJYHBq4aJXaulcPao36TuCWfQ/sWQxPy/B6ed2Lo9MqGt8BHLF3MCVrHunLLMGrOL26wBr4" +
 *     "5HEhgItlcd8VgK8rODewZFxKreuxAQRBEARBvGee1UJ5YLnS7L0WKphQ+IniJKGJBi/TRD5mzQoR" +
 *     "lE8qIL8WbEBRiaOCaCgr8SQqKSR7rUDwt/1Zaqw8Fvve60R9KIpNjkolt5mxcEkltsZCJ/voHQpj" +
 *     "f39/cRt+vM15WFkLXS1GOQx1EdIO993km+n13b2HcTpfa6T2ryz9DwmCIAiCIAiCIAjirWi41TX7" +
 *     "m3QpFtGlaHqrXtOru550Kba4tAbarajVD6OhXdHudMNev3PYA9OB4Xejp1wM/QFLM16bvxn1YPiI" +
 *     "j4AezFPWRuzBcOnBXKsCJZ34/P29/9yP7c07+zGsKF8cAAA=",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "t.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const store = hdf5Store(fs, "t.h5");
 * const t = await zarr.open(zarr.root(store).resolve("t"), { kind: "array" });
 * deepStrictEqual((await zarr.get(t)).data, new Float32Array([1.5, 2.5, 3.5]));
 * // Its attributes, and its dimension as xarray names it.
 * deepStrictEqual(t.attrs, { units: "degC", _ARRAY_DIMENSIONS: ["time"] });
 * // Variable-length strings, as JS strings.
 * const names = await zarr.open(zarr.root(store).resolve("names"), { kind: "array" });
 * deepStrictEqual((await zarr.get(names)).data, ["a", "bc"]);
 * deepStrictEqual(await store.problems(), []); // nothing left out
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool`, or any tree with `info` and ranged `catFile`
 * @param path the file's path in `source`
 * @param options `signal` aborts the metadata reads
 */
export function hdf5Store(
  source: ByteSource,
  path: string,
  options: { signal?: AbortSignal } = {},
): Hdf5Store {
  return storeOfView(() =>
    keptMetadata(
      source,
      path,
      "hdf5",
      ({ metadata, data }, signal) =>
        readZarrView(metadata, path, signal, data),
      options.signal,
    )
  );
}

/** The store serving the Zarr view `read` gives (asked again after it failed). */
export function storeOfView(read: () => Promise<ZarrView>): Hdf5Store {
  let view: Promise<ZarrView> | undefined;
  const load = () => {
    view ??= read();
    view.catch(() => view = undefined);
    return view;
  };
  const store: Hdf5Store = {
    async get(key, { signal } = {}) {
      const zarr = await load();
      const name = key.slice(1);
      if (name === ".zmetadata") {
        const metadata = Object.fromEntries(
          [...zarr.metadata.keys()].map((k) => [k, served(zarr, k)!]),
        );
        return encode({ zarr_consolidated_format: 1, metadata });
      }
      const metadata = served(zarr, name);
      if (metadata !== undefined) return encode(metadata);
      const problem = zarr.problems.find((p) =>
        name === `${p.path}/.zarray` || name === `${p.path}/.zattrs`
      );
      if (problem) {
        throw new Hdf5UnsupportedError(problem.path, problem.reason, {
          path: zarr.file.path,
        });
      }
      const slash = name.lastIndexOf("/");
      const array = zarr.arrays.get(slash < 0 ? "" : name.slice(0, slash));
      if (array === undefined) return undefined;
      const chunk = name.slice(slash + 1);
      const ref = (await array.refs()).get(chunk);
      return ref === undefined
        ? undefined
        : await readChunk(zarr, array, chunk, ref, signal);
    },
    async getRange(key, range, options) {
      return rangeOf(await store.get(key, options), range);
    },
    async problems() {
      return [...(await load()).problems];
    },
  };
  return store satisfies AsyncReadable;
}

async function readChunk(
  zarr: ZarrView,
  array: MappedArray,
  key: string,
  ref: ChunkRef,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const decoded = await readStoredChunk(zarr, array, key, ref, signal);
  const { type } = array.dataset;
  if (type.text === undefined) return decoded;
  const count = decoded.length / type.size;
  return encodeVlenUtf8(
    await decodeStrings(type, decoded, count, zarr.heap),
  );
}

/** A chunk's bytes, its filters undone. */
async function readStoredChunk(
  zarr: ZarrView,
  array: MappedArray,
  key: string,
  ref: ChunkRef,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  if ("data" in ref) return ref.data.slice();
  const { dataset } = array;
  const place: ChunkPlace = { file: zarr.file.path, variable: array.path, key };
  const bytes = zarrChunks(dataset).reduce((a, b) => a * b, 1) *
    dataset.type.size;
  checkStoredSize(ref.length, bytes, dataset.filters, place);
  const what = `chunk ${key} of "${array.path}"`;
  let stored: Uint8Array;
  if (array.codecs.fletcher32) {
    const checked = await zarr.file.raw(
      { ...ref, length: ref.length + 4 },
      what,
      signal,
    );
    if (!fletcher32Holds(checked)) {
      throw new Hdf5FormatError(
        zarr.file.path,
        `${what} fails its Fletcher-32 checksum`,
        { variable: array.path },
      );
    }
    stored = checked.subarray(0, ref.length);
  } else {
    stored = await zarr.file.raw(ref, what, signal);
  }
  if (dataset.filters.some((f) => f.id !== FilterId.fletcher32)) {
    return owned(
      await decodeChunk(stored, dataset.filters, ref.mask ?? 0, bytes, place),
    );
  }
  if (ref.padTo === undefined) return owned(stored);
  const padded = new Uint8Array(ref.padTo);
  padded.set(stored);
  return padded;
}

/** `bytes`, or a copy where they are a view of a larger read (served bytes own their memory). */
function owned(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
}

function encode(document: JsonValue): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(document));
}

/** Metadata document `name` as the store serves it; `undefined` for any other key. */
function served(
  zarr: ZarrView,
  name: string,
): Record<string, JsonValue> | undefined {
  const metadata = zarr.metadata.get(name);
  if (metadata === undefined) return undefined;
  const array = name.endsWith("/.zarray") || name === ".zarray"
    ? zarr.arrays.get(name.slice(0, -".zarray".length).replace(/\/$/, ""))
    : undefined;
  return array ? decodedZarray(array, metadata) : metadata;
}

/**
 * A `.zarray` as the store serves it: chunks come decoded, so no codecs,
 * and strings come as `vlen-utf8` objects.
 */
function decodedZarray(
  array: MappedArray,
  metadata: Record<string, JsonValue>,
): Record<string, JsonValue> {
  if (array.dataset.type.text === undefined) {
    return { ...metadata, compressor: null, filters: null };
  }
  return {
    ...metadata,
    dtype: "|O",
    compressor: null,
    filters: [{ id: "vlen-utf8" }],
    fill_value: "",
  };
}

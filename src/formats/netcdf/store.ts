/**
 * `netcdfStore`: a zarrita store presenting a NetCDF file of a dataset,
 * classic or NetCDF4, as a Zarr v2 group.
 *
 * @module
 */

import { rangeOf } from "../range_of.ts";
import type { AsyncReadable } from "zarrita";
import { storeOfView } from "../hdf5/store.ts";
import { type Hdf5Problem, readZarrView } from "../hdf5/zarr_view.ts";
import { keptMetadata } from "../kept_metadata.ts";
import { coalescing } from "../coalesced_reads.ts";
import type { MetadataSeed } from "../../content/file_metadata.ts";
import type { ByteSource } from "../source.ts";
import { chunkRange, metadataDocument, metadataKeys } from "./classic_view.ts";
import type { Header, Variable } from "./header.ts";
import type { JsonValue } from "../hdf5/values.ts";
import { openFile } from "./open_file.ts";
import { readRange, RecordBlocks } from "./record_blocks.ts";

/**
 * A zarrita store over a NetCDF file, classic or NetCDF4.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { type NetcdfStore, netcdfStore } from "@x/repo-fs/netcdf";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // t.nc as netCDF4-python writes it (NETCDF3_CLASSIC): float `t` = [1.5, 2.5, 3.5]
 * // along the record dimension `time`; in base64.
 * const nc = Uint8Array.from(atob(
 *   "Q0RGAQAAAAMAAAAKAAAAAQAAAAR0aW1lAAAAAAAAAAAAAAAAAAAACwAAAAEAAAABdAAAAAAAAAEA" +
 *     "AAAAAAAAAAAAAAAAAAAFAAAABAAAAFA/wAAAQCAAAEBgAAA=",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "t.nc": nc } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const store: NetcdfStore = netcdfStore(fs, "t.nc");
 * const t = await zarr.open(zarr.root(store).resolve("t"), { kind: "array" });
 * deepStrictEqual((await zarr.get(t)).data, new Float32Array([1.5, 2.5, 3.5]));
 * ```
 */
export interface NetcdfStore {
  /** A metadata document or a chunk; `undefined` for a missing key. */
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
  /** The variables (and attributes) left out of the Zarr group, each with why: none in a classic file. */
  problems(): Promise<Hdf5Problem[]>;
}

/**
 * A zarrita store presenting the NetCDF file `path` of `source` as a Zarr
 * v2 group, whichever kind it is: a classic file (CDF-1, CDF-2 "64-bit
 * offset", CDF-5 "64-bit data") is read here, a NetCDF4/HDF5 file as
 * `hdf5Store` reads it. Of a classic file, the first get reads the header
 * (256 KiB first, more if it is longer); then each chunk is the range of
 * the file it is, read when asked for. Each variable is an array of its
 * big-endian type (`>i2`, `>f4`, `|S1` for characters, CDF-5's `>u2`,
 * `>i8`, …) with its attributes as they are (`_FillValue`, `scale_factor`:
 * nothing is applied) and `_ARRAY_DIMENSIONS`; global attributes are the
 * group's. A fixed variable is cut into chunks of about 1 MiB along its
 * first axis; a record variable has one chunk per record, its slab of that
 * record (where records are small, neighbouring records come in the same
 * request, up to 32 KiB). A damaged, truncated or absurd header is a
 * `NetcdfFormatError` naming what is wrong, before anything is allocated
 * for it.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { netcdfStore } from "@x/repo-fs/netcdf";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // t.nc as netCDF4-python writes it (NETCDF3_CLASSIC): float `t` = [1.5, 2.5, 3.5]
 * // along the record dimension `time`, in K; in base64.
 * const nc = Uint8Array.from(atob(
 *   "Q0RGAQAAAAMAAAAKAAAAAQAAAAR0aW1lAAAAAAAAAAAAAAAAAAAACwAAAAEAAAABdAAAAAAAAAEA" +
 *     "AAAAAAAADAAAAAEAAAAFdW5pdHMAAAAAAAACAAAAAUsAAAAAAAAFAAAABAAAAGg/wAAAQCAAAEBg" +
 *     "AAA=",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "t.nc": nc } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const t = await zarr.open(zarr.root(netcdfStore(fs, "t.nc")).resolve("t"), {
 *   kind: "array",
 * });
 * deepStrictEqual(t.shape, [3]);
 * deepStrictEqual(t.chunks, [1]); // one chunk per record
 * deepStrictEqual(t.attrs, { units: "K", _ARRAY_DIMENSIONS: ["time"] });
 * deepStrictEqual((await zarr.get(t, [zarr.slice(1, 3)])).data, new Float32Array([2.5, 3.5]));
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool`, or any tree with `info` and ranged `catFile`
 * @param path the file's path in `source`
 * @param options `signal` aborts the header reads
 */
export function netcdfStore(
  source: ByteSource,
  path: string,
  options: { signal?: AbortSignal } = {},
): NetcdfStore {
  let opened: Promise<NetcdfStore> | undefined;
  const open = () => {
    opened ??= openKept(source, path, options.signal).then((file) =>
      file.kind === "hdf5"
        ? storeOfView(() => Promise.resolve(file.view))
        : classicStore(file.data, path, file.size, file.header, options.signal)
    );
    opened.catch(() => opened = undefined);
    return opened;
  };
  const store: NetcdfStore = {
    get: async (key, o) => await (await open()).get(key, o),
    getRange: async (key, range, o) =>
      await (await open()).getRange(key, range, o),
    problems: async () => await (await open()).problems(),
  };
  return store satisfies AsyncReadable;
}

/** The kind of NetCDF file `path` is and its parsed metadata, kept where `source` keeps metadata. */
function openKept(source: ByteSource, path: string, signal?: AbortSignal) {
  return keptMetadata(
    source,
    path,
    KIND,
    async ({ metadata, data }, signal) => {
      const file = await openFile(metadata, path, signal);
      return file.kind === "hdf5"
        ? {
          kind: file.kind,
          view: await readZarrView(file.source, path, signal, data),
        }
        : { ...file, data: coalescing(data, path) };
    },
    signal,
  );
}

/** The name `netcdfStore` keeps its files' metadata under. */
const KIND = "netcdf";

/**
 * The metadata bytes of NetCDF file `path` that `source` keeps, the chunk
 * index of `variable` read too: what a pool's worker needs to read the
 * variable without reading any metadata.
 */
export async function netcdfSeed(
  source: ByteSource,
  path: string,
  variable: string,
  signal?: AbortSignal,
): Promise<MetadataSeed | undefined> {
  if (source.metadata === undefined) return undefined;
  const file = await openKept(source, path, signal);
  if (file.kind === "hdf5") {
    await file.view.arrays.get(variable.replace(/^\/+|\/+$/g, ""))?.refs();
  }
  return await source.metadata.seedOf(path, KIND);
}

/** The store of a classic file whose header is read. */
function classicStore(
  source: ByteSource,
  path: string,
  size: number,
  header: Header,
  signal?: AbortSignal,
): NetcdfStore {
  const variables = new Map(header.variables.map((v) => [v.name, v]));
  const records = new RecordBlocks(source, path, size, header, signal);
  const store: NetcdfStore = {
    async get(key, options = {}) {
      const name = key.slice(1);
      const document = name === ".zmetadata"
        ? consolidated(header, variables)
        : metadataDocument(header, variables, name);
      if (document !== undefined) {
        return new TextEncoder().encode(JSON.stringify(document));
      }
      const slash = name.lastIndexOf("/");
      const v = variables.get(name.slice(0, slash));
      if (v === undefined) return undefined;
      const chunk = name.slice(slash + 1);
      const range = chunkRange(header, v, chunk);
      if (range === undefined) return undefined;
      return v.record
        ? await records.read(
          range,
          Number(chunk.split(".")[0]),
          v.name,
          options.signal,
        )
        : await readRange(
          source,
          path,
          range,
          v.name,
          options.signal ?? signal,
        );
    },
    async getRange(key, range, options) {
      return rangeOf(await store.get(key, options), range);
    },
    problems: () => Promise.resolve([]),
  };
  return store;
}

/** Every metadata document of the group in one, as Zarr v2's `.zmetadata`. */
function consolidated(
  header: Header,
  variables: Map<string, Variable>,
): Record<string, JsonValue> {
  const metadata: Record<string, JsonValue> = {};
  for (const key of metadataKeys(header)) {
    metadata[key] = metadataDocument(header, variables, key)!;
  }
  return { zarr_consolidated_format: 1, metadata };
}

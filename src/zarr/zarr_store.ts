/**
 * A zarrita store over a dataset: Zarr keys below a root directory become
 * dataset paths, read with `catFile`. Whether a key exists is answered from
 * the routing table, so a missing key costs no request.
 *
 * @module
 */

import type { AsyncReadable, RangeQuery } from "zarrita";
import { NotFoundError } from "../base/errors.ts";
import { normalizePath } from "../tree/paths.ts";
import type { ByteSource } from "../formats/source.ts";

/**
 * A zarrita `AsyncReadable` that always has `getRange` (sharded arrays
 * need it). Keys are absolute: `/temperature/.zarray`. Written out here
 * for the documentation; {@linkcode zarrStore} is checked against
 * zarrita's own `AsyncReadable`.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type RepoZarrStore, zarrStore } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}' },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const store: RepoZarrStore = zarrStore(fs, "climate.zarr");
 * const text = (bytes?: Uint8Array) => new TextDecoder().decode(bytes);
 * strictEqual(text(await store.get("/.zgroup")), '{"zarr_format":2}');
 * strictEqual(text(await store.getRange("/.zgroup", { suffixLength: 2 })), "2}");
 * strictEqual(await store.get("/temperature/.zarray"), undefined);
 * ```
 */
export interface RepoZarrStore {
  /** The whole file at `key`; `undefined` for a missing key or a directory. */
  get(
    key: `/${string}`,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined>;
  /**
   * `length` bytes from `offset`, or the last `suffixLength` bytes, of the
   * file at `key`; `undefined` for a missing key or a directory.
   */
  getRange(
    key: `/${string}`,
    range: { offset: number; length: number } | { suffixLength: number },
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined>;
}

/**
 * A zarrita `AsyncReadable` over the Zarr hierarchy stored in directory
 * `root` of the dataset. Keys are zarrita's absolute paths
 * (`/temperature/.zarray`) below `root`. A missing key or a directory
 * resolves to `undefined` without any request; any other failure rejects.
 *
 * @example
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { zarrStore } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // Three days of a 2 × 3 grid, a chunk a day, valued 0, 1, 2, … in C order.
 * const files: Record<string, string | Uint8Array> = {
 *   "climate.zarr/.zgroup": '{"zarr_format":2}',
 *   "climate.zarr/temperature/.zarray": JSON.stringify({
 *     zarr_format: 2, shape: [3, 2, 3], chunks: [1, 2, 3], dtype: "<f4",
 *     compressor: null, filters: null, fill_value: 0, order: "C",
 *   }),
 * };
 * for (let day = 0; day < 3; day++) {
 *   const chunk = Float32Array.from({ length: 6 }, (_, i) => day * 6 + i);
 *   files[`climate.zarr/temperature/${day}.0.0`] = new Uint8Array(chunk.buffer);
 * }
 * await using emu = await startEmulator({ files });
 *
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const store = zarrStore(fs, "climate.zarr");
 * const group = await zarr.open(store, { kind: "group" });
 * const temp = await zarr.open(group.resolve("temperature"), { kind: "array" });
 * const { data, shape } = await zarr.get(temp, [0, null, null]);
 * deepStrictEqual(shape, [2, 3]);
 * deepStrictEqual(data, new Float32Array([0, 1, 2, 3, 4, 5]));
 *
 * // A missing key costs no request.
 * const before = { ...emu.counters };
 * strictEqual(await store.get("/rainfall/.zarray"), undefined);
 * deepStrictEqual(emu.counters, before);
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool`, or a `zipTree`
 * @param root the directory holding the hierarchy; `""` is the dataset root
 */
export function zarrStore(source: ByteSource, root = ""): RepoZarrStore {
  const base = normalizePath(root);
  const pathOf = (key: string) => base === "" ? key : `${base}/${key}`;

  const store: RepoZarrStore = {
    async get(key, options = {}) {
      const path = pathOf(key);
      if (!await isFileIn(source, path)) return undefined;
      return await source.catFile(path, { signal: options.signal });
    },
    async getRange(key, range, options = {}) {
      const path = pathOf(key);
      const bounds = byteBounds(range, path);
      if (!await isFileIn(source, path)) return undefined;
      if (bounds === undefined) return new Uint8Array(0);
      return await source.catFile(path, { ...bounds, signal: options.signal });
    },
  };
  return store satisfies Required<AsyncReadable>;
}

/**
 * Whether `path` is a file of `source`: asked of `exists` first where the
 * source has it, else of `info`, a `NotFoundError` meaning no.
 */
export async function isFileIn(
  source: ByteSource,
  path: string,
): Promise<boolean> {
  if (source.exists !== undefined) {
    return await source.exists(path) &&
      (await source.info(path)).type === "file";
  }
  try {
    return (await source.info(path)).type === "file";
  } catch (error) {
    if (error instanceof NotFoundError) return false;
    throw error;
  }
}

/**
 * `catFile` bounds of a range query of `path`; `undefined` when it asks for
 * no byte.
 */
function byteBounds(
  range: RangeQuery,
  path: string,
): { start: number; end?: number } | undefined {
  if ("suffixLength" in range) {
    const { suffixLength } = range;
    nonNegative("suffixLength", suffixLength, path);
    return suffixLength === 0 ? undefined : { start: -suffixLength };
  }
  const { offset, length } = range;
  nonNegative("offset", offset, path);
  nonNegative("length", length, path);
  return length === 0 ? undefined : { start: offset, end: offset + length };
}

function nonNegative(name: string, value: number, path: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    // zarrita takes shard offsets from the shard's index: a damaged one gives such.
    throw new RangeError(
      `A range of "${
        normalizePath(path)
      }" was asked with ${name} ${value}, not an integer >= 0 (a damaged shard index?)`,
    );
  }
}

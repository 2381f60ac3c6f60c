/**
 * An HDF5 file seen as a Zarr v2 group: the metadata documents (`.zgroup`,
 * `.zarray`, `.zattrs`) of its groups and datasets, the chunks of each
 * dataset (read on first use), and what could not be mapped.
 *
 * @module
 */

import { attributeValue } from "./attributes.ts";
import { type ChunkRef, chunkRefs, zarrChunks } from "./chunk_index.ts";
import { Hdf5FormatError } from "./errors.ts";
import { FormatError } from "../../base/format_error.ts";
import { FileReader } from "./file_reader.ts";
import { type ZarrCodecs, zarrCodecs } from "./filters.ts";
import { GlobalHeap } from "./global_heap.ts";
import { type Dataset, type Hdf5Object, walkHierarchy } from "./hierarchy.ts";
import {
  dimensionNames,
  isDimensionOnly,
  isDimensionScale,
  isShown,
  variableName,
} from "./netcdf.ts";
import { readSuperblock } from "./superblock.ts";
import { decodeNumbers, type JsonValue } from "./values.ts";
import type { ByteSource } from "../source.ts";
import { coalescing } from "../coalesced_reads.ts";
import type { Sizes } from "./cursor.ts";

/**
 * Something of the file that is not presented, and why.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type Hdf5Problem, hdf5Store } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // p.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] and the
 * // compound `pairs`; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+v0cHHj5ZLiYubgYICB/1CgAhUygIr/fBI4xd/DJYhJITiEKxsZVzAJIWuEAS4m" +
 *     "BkYGBjYeBiDFWHIYagybAIjPWpCYWVR8nhEqaMJAFtgduHc72ElACxhFGBiYGBkZmaFycFqEgVFQ" +
 *     "QZ6BBcxTYBDnYBCvB7JYga5j5uIAupyFkQHqVR6YwRsYhhwozSw6hR4WTFA5GM2sx8BoxgTxZyID" +
 *     "gwDQ27BgSWJgEVSwhwaEA4MJN4PJf2bUUOKBhpIEzMppgzUsXKX+7GcYBaNgFIyCUYAPHLAHlv4O" +
 *     "DAwJDrhUAABBIKYiJAgAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "p.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const problems: Hdf5Problem[] = await hdf5Store(fs, "p.h5").problems();
 * deepStrictEqual(problems, [
 *   { path: "pairs", reason: "compound types are not supported" },
 * ]);
 * ```
 */
export interface Hdf5Problem {
  /** The variable's (or group's) path in the file. */
  path: string;
  /** Why it is left out. */
  reason: string;
}

/** A dataset presented as a Zarr array. */
export interface MappedArray {
  path: string;
  dataset: Dataset;
  codecs: ZarrCodecs;
  /** Every stored chunk by Zarr chunk key, read on first call. */
  refs(): Promise<Map<string, ChunkRef>>;
}

/** The Zarr view of one HDF5 file. */
export interface ZarrView {
  file: FileReader;
  sizes: Sizes;
  /** Where variable-length values are. */
  heap: GlobalHeap;
  /** Metadata documents by key without a leading slash (`temperature/.zarray`). */
  metadata: Map<string, Record<string, JsonValue>>;
  arrays: Map<string, MappedArray>;
  problems: Hdf5Problem[];
}

/**
 * Reads the metadata of the HDF5 file `path` of `source` into its Zarr
 * view, whose chunks are read from `data` (`source` unless told), those
 * asked for together in merged requests.
 */
export async function readZarrView(
  source: ByteSource,
  path: string,
  signal?: AbortSignal,
  data: ByteSource = source,
): Promise<ZarrView> {
  const info = await source.info(path);
  if (info.type !== "file" || info.size === null) {
    throw new Hdf5FormatError(
      path,
      info.type === "file" ? "its size is not known" : "it is a directory",
    );
  }
  const file = new FileReader(
    source,
    path,
    info.size,
    signal,
    coalescing(data, path, { shared: true }),
  );
  const { sizes, root } = await readSuperblock(file);
  const objects = await walkHierarchy(file, sizes, root);
  const heap = new GlobalHeap(file, sizes);
  const byAddress = new Map(objects.map((object) => [object.address, object]));
  const netcdf = objects[0].attributes.some((a) => a.name === "_NCProperties");
  if (netcdf) {
    for (const object of objects) object.path = variableName(object.path);
  }
  const view: ZarrView = {
    file,
    sizes,
    heap,
    metadata: new Map(),
    arrays: new Map(),
    problems: [],
  };
  const prefix = (p: string) => p === "" ? "" : `${p}/`;
  await Promise.all(objects.map(async (object) => {
    const { dataset } = object;
    if (object.unreadable !== undefined) {
      view.problems.push({ path: object.path, reason: object.unreadable });
      return;
    }
    for (const reason of object.attributeProblems) {
      view.problems.push({
        path: object.path === "" ? "/" : object.path,
        reason,
      });
    }
    if (dataset === undefined) {
      view.metadata.set(`${prefix(object.path)}.zgroup`, { zarr_format: 2 });
      view.metadata.set(
        `${prefix(object.path)}.zattrs`,
        await shownAttributes(object, false, heap, view.problems),
      );
      return;
    }
    if (await isDimensionOnly(object, heap)) return;
    const problem = datasetProblem(dataset);
    if (problem !== undefined) {
      view.problems.push({ path: object.path, reason: problem });
      return;
    }
    const codecs = zarrCodecs(dataset.filters, dataset.type.size);
    if (codecs.problem !== undefined) {
      view.problems.push({ path: object.path, reason: codecs.problem });
      return;
    }
    const scale = await isDimensionScale(object, heap);
    const attrs = await shownAttributes(object, scale, heap, view.problems);
    if (dataset.type.members !== undefined) {
      Object.assign(attrs, enumAttributes(dataset.type.members));
    }
    const dims = await dimensionNames(object, byAddress, heap);
    if (dims !== undefined) attrs._ARRAY_DIMENSIONS = dims;
    else if (netcdf && dataset.space?.shape.length === 0) {
      attrs._ARRAY_DIMENSIONS = [];
    }
    view.metadata.set(
      `${object.path}/.zarray`,
      zarray(dataset, codecs, zarrChunks(dataset)),
    );
    view.metadata.set(`${object.path}/.zattrs`, attrs);
    let refs: Promise<Map<string, ChunkRef>> | undefined;
    view.arrays.set(object.path, {
      path: object.path,
      dataset,
      codecs,
      refs: () => {
        refs ??= chunkRefs(file, sizes, object.path, dataset).then(
          (map) => codecs.fletcher32 ? withoutChecksums(map) : map,
          (error) => {
            throw ofVariable(error, object.path);
          },
        );
        refs.catch(() => refs = undefined);
        return refs;
      },
    });
  }));
  return view;
}

/** `error`, naming `variable` when it is an HDF5 format error that does not yet. */
function ofVariable(error: unknown, variable: string): unknown {
  if (!(error instanceof Hdf5FormatError) || error.variable !== undefined) {
    return error;
  }
  return new Hdf5FormatError(error.path, error.problem, {
    variable,
    cause: error,
  });
}

/** Why a dataset cannot be a Zarr array, if it cannot. */
function datasetProblem(dataset: Dataset): string | undefined {
  if (dataset.type.dtype === undefined) {
    return dataset.type.problem ?? "its datatype is not supported";
  }
  if (dataset.space === undefined) {
    return "it has a null dataspace (no elements)";
  }
  if (dataset.layout.kind === "unsupported") return dataset.layout.problem;
  return undefined;
}

/** The `.zarray` of a dataset, with `chunks` as its Zarr chunk shape. */
export function zarray(
  dataset: Dataset,
  codecs: ZarrCodecs,
  chunks: number[],
): Record<string, JsonValue> {
  return {
    zarr_format: 2,
    shape: dataset.space!.shape,
    chunks,
    dtype: dataset.type.dtype!,
    compressor: codecs.compressor as Record<string, JsonValue> | null,
    filters: codecs.filters as Record<string, JsonValue>[] | null,
    fill_value: fillValue(dataset),
    order: "C",
    dimension_separator: ".",
  };
}

function fillValue(dataset: Dataset): JsonValue {
  if (dataset.type.text !== undefined) return null;
  if (dataset.fill === undefined) return 0;
  return decodeNumbers(dataset.type, dataset.fill, 1)?.[0] ?? 0;
}

async function shownAttributes(
  object: Hdf5Object,
  scale: boolean,
  heap: GlobalHeap,
  problems: Hdf5Problem[],
): Promise<Record<string, JsonValue>> {
  const attrs: Record<string, JsonValue> = {};
  for (const attr of object.attributes) {
    if (
      !isShown(attr, scale) || (object.dataset && attr.name === "_FillValue")
    ) continue;
    const path = object.path === "" ? "/" : object.path;
    let value: JsonValue | undefined;
    try {
      value = await attributeValue(attr, heap);
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      problems.push({
        path,
        reason: `attribute "${attr.name}": ${error.problem}`,
      });
      continue;
    }
    if (value === undefined) {
      problems.push({
        path,
        reason: `attribute "${attr.name}": ${
          attr.type.problem ?? "its type has no JSON form"
        }`,
      });
    } else {
      attrs[attr.name] = value;
    }
  }
  return attrs;
}

/**
 * An enum's members as CF flag attributes: `flag_values`, and
 * `flag_meanings`, the names in the same order, separated by spaces.
 */
function enumAttributes(
  members: Record<string, number>,
): Record<string, JsonValue> {
  const names = Object.keys(members);
  return {
    flag_values: names.map((name) => members[name]),
    flag_meanings: names.join(" "),
  };
}

/** Chunk ranges without the Fletcher-32 checksum each chunk ends with. */
function withoutChecksums(refs: Map<string, ChunkRef>): Map<string, ChunkRef> {
  const stripped = new Map<string, ChunkRef>();
  for (const [key, ref] of refs) {
    stripped.set(key, "data" in ref ? ref : { ...ref, length: ref.length - 4 });
  }
  return stripped;
}

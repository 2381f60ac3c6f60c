/**
 * Where each chunk of a dataset is: the Zarr chunk key of every stored
 * chunk and the range of the file holding it. Contiguous datasets are cut
 * into chunks of about {@linkcode CONTIGUOUS_CHUNK_BYTES} along their
 * first axis.
 *
 * @module
 */

import { btreeV1Leaves } from "./btree_v1.ts";
import { btreeV2Records } from "./btree_v2.ts";
import { extensibleArrayChunks } from "./extensible_array.ts";
import { fixedArrayChunks, readChunkEntry } from "./fixed_array.ts";
import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5UnsupportedError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";
import type { Dataset } from "./hierarchy.ts";
import { ChunkIndex } from "./layout.ts";
import { FilterId } from "./filters.ts";

/** Bytes a chunk of a contiguous dataset is cut to, about. */
export const CONTIGUOUS_CHUNK_BYTES = 2 ** 20;

/** A chunk: a range of the file, or bytes held in the object header (compact layout). */
export type ChunkRef =
  | {
    offset: number;
    length: number;
    /** Bytes the chunk decodes from: more than `length` for the short last chunk of a contiguous dataset (zero-padded). */
    padTo?: number;
    /** Bit `i` set: filter `i` of the pipeline was skipped for this chunk. */
    mask?: number;
  }
  | { data: Uint8Array };

/** The Zarr chunk shape of a dataset. */
export function zarrChunks(dataset: Dataset): number[] {
  const shape = dataset.space?.shape ?? [];
  const { layout } = dataset;
  if (layout.kind === "chunked") return layout.chunks;
  if (shape.length === 0) return [];
  if (layout.kind !== "contiguous") return shape;
  const rowBytes = shape.slice(1).reduce((a, b) => a * b, 1) *
    dataset.type.size;
  const rows = Math.max(
    1,
    Math.floor(CONTIGUOUS_CHUNK_BYTES / Math.max(1, rowBytes)),
  );
  return [Math.max(1, Math.min(shape[0], rows)), ...shape.slice(1)];
}

/** Every stored chunk of `dataset` (at `path` in the file), by Zarr chunk key (`0.3.1`). */
export async function chunkRefs(
  file: FileReader,
  sizes: Sizes,
  path: string,
  dataset: Dataset,
): Promise<Map<string, ChunkRef>> {
  const refs = new Map<string, ChunkRef>();
  const shape = dataset.space?.shape ?? [];
  const chunks = zarrChunks(dataset);
  const { layout } = dataset;
  const elements = (dims: number[]) => dims.reduce((a, b) => a * b, 1);
  const chunkBytes = elements(chunks) * dataset.type.size;
  const zeroKey = shape.length === 0 ? "0" : shape.map(() => 0).join(".");
  if (layout.kind === "compact") {
    refs.set(zeroKey, { data: layout.data });
  } else if (layout.kind === "contiguous") {
    if (layout.address === UNDEFINED_ADDRESS) return refs;
    const total = elements(shape) * dataset.type.size;
    file.check(
      { offset: layout.address, length: total },
      `the data of "${path}"`,
    );
    if (shape.length === 0) {
      refs.set(zeroKey, { offset: layout.address, length: total });
      return refs;
    }
    for (let i = 0, at = 0; at < total; i++, at += chunkBytes) {
      const length = Math.min(chunkBytes, total - at);
      const key = [i, ...shape.slice(1).map(() => 0)].join(".");
      refs.set(key, {
        offset: layout.address + at,
        length,
        ...(length < chunkBytes ? { padTo: chunkBytes } : {}),
      });
    }
  } else if (layout.kind === "chunked") {
    if (layout.address === UNDEFINED_ADDRESS) return refs;
    for (const chunk of await storedChunks(file, sizes, path, dataset)) {
      const where = `chunk [${chunk.scaled}] of "${path}"`;
      const fletcher32 = dataset.filters.findIndex((f) =>
        f.id === FilterId.fletcher32
      );
      if (fletcher32 >= 0 && chunk.mask & (1 << fletcher32)) {
        throw new Hdf5UnsupportedError(
          path,
          `${where} was stored without its Fletcher-32 checksum`,
          { path: file.path },
        );
      }
      file.check(chunk, where);
      refs.set(chunk.scaled.length === 0 ? "0" : chunk.scaled.join("."), chunk);
    }
  }
  return refs;
}

/** A stored chunk: its position in the chunk grid and its range of the file. */
interface StoredChunk {
  scaled: number[];
  offset: number;
  length: number;
  mask: number;
}

/** The stored chunks of a chunked dataset, from whichever index it has. */
async function storedChunks(
  file: FileReader,
  sizes: Sizes,
  path: string,
  dataset: Dataset,
): Promise<StoredChunk[]> {
  const layout = dataset.layout as Extract<
    Dataset["layout"],
    { kind: "chunked" }
  >;
  const { chunks } = layout;
  const rank = chunks.length;
  const chunkBytes = chunks.reduce((a, b) => a * b, 1) * dataset.type.size;
  // Arrays of chunks are laid out in C order over the grid of the largest extent.
  const grid = (dataset.space?.maxShape ?? []).map((max, axis) =>
    Math.ceil((max ?? dataset.space!.shape[axis]) / chunks[axis])
  );
  const scaledOf = (index: number) => {
    const scaled = new Array<number>(rank);
    for (let axis = rank - 1; axis >= 0; axis--) {
      scaled[axis] = index % grid[axis];
      index = Math.floor(index / grid[axis]);
    }
    return scaled;
  };
  switch (layout.index) {
    case ChunkIndex.btreeV1: {
      const leaves = await btreeV1Leaves(
        file,
        sizes,
        layout.address,
        1,
        8 + 8 * (rank + 1),
      );
      return leaves.map(({ key, child }) => {
        const c = new Cursor(key, sizes, file.path);
        const length = c.u32();
        const mask = c.u32();
        const scaled = chunks.map((chunk) => c.uint(8) / chunk);
        return { scaled, offset: child, length, mask };
      });
    }
    case ChunkIndex.singleChunk:
      return [{
        scaled: chunks.map(() => 0),
        offset: layout.address,
        length: layout.single?.size ?? chunkBytes,
        mask: layout.single?.mask ?? 0,
      }];
    case ChunkIndex.implicit: {
      const count = grid.reduce((a, b) => a * b, 1);
      file.check(
        { offset: layout.address, length: count * chunkBytes },
        `the chunks of "${path}"`,
      );
      return Array.from({ length: count }, (_, index) => ({
        scaled: scaledOf(index),
        offset: layout.address + index * chunkBytes,
        length: chunkBytes,
        mask: 0,
      }));
    }
    case ChunkIndex.fixedArray: {
      const entries = await fixedArrayChunks(
        file,
        sizes,
        layout.address,
        chunkBytes,
      );
      return entries.map(({ index, ...entry }) => ({
        scaled: scaledOf(index),
        ...entry,
      }));
    }
    case ChunkIndex.extensibleArray: {
      const unlimited = dataset.space!.maxShape.findIndex((max) =>
        max === null
      );
      if (unlimited > 0) {
        throw new Hdf5UnsupportedError(
          path,
          "an extensible array index over an unlimited axis other than the first",
          { path: file.path },
        );
      }
      const entries = await extensibleArrayChunks(
        file,
        sizes,
        layout.address,
        chunkBytes,
      );
      return entries.map(({ index, ...entry }) => ({
        scaled: scaledOf(index),
        ...entry,
      }));
    }
    case ChunkIndex.btreeV2: {
      const { type, records } = await btreeV2Records(
        file,
        sizes,
        layout.address,
      );
      const sizeBytes = Math.min(
        8,
        1 + Math.floor((Math.floor(Math.log2(chunkBytes)) + 8) / 8),
      );
      return records.map((record) => {
        const c = new Cursor(record, sizes, file.path);
        const entry = readChunkEntry(c, type === 11, sizeBytes, chunkBytes);
        return { scaled: chunks.map(() => c.uint(8)), ...entry };
      });
    }
    default:
      throw new Hdf5UnsupportedError(
        path,
        `chunk index type ${layout.index} is not supported yet`,
        { path: file.path },
      );
  }
}

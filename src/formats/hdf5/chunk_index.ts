/**
 * Where each chunk of a dataset is: the Zarr chunk key of every stored
 * chunk and the range of the file holding it. Contiguous datasets are cut
 * into chunks of about {@linkcode CONTIGUOUS_CHUNK_BYTES} along their
 * first axis.
 *
 * @module
 */

import { btreeV1Leaves } from "./btree_v1.ts";
import { Cursor, type Sizes, UNDEFINED_ADDRESS } from "./cursor.ts";
import { Hdf5UnsupportedError } from "./errors.ts";
import type { FileReader } from "./file_reader.ts";
import type { Dataset } from "./hierarchy.ts";
import { ChunkIndex } from "./layout.ts";

/** Bytes a chunk of a contiguous dataset is cut to, about. */
export const CONTIGUOUS_CHUNK_BYTES = 2 ** 20;

/** A chunk: a range of the file, or bytes held in the object header (compact layout). */
export type ChunkRef =
  | {
    offset: number;
    length: number;
    /** Bytes the chunk decodes from: more than `length` for the short last chunk of a contiguous dataset (zero-padded). */
    padTo?: number;
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
    const rank = chunks.length;
    if (layout.index === ChunkIndex.btreeV1) {
      const leaves = await btreeV1Leaves(
        file,
        sizes,
        layout.address,
        1,
        8 + 8 * (rank + 1),
      );
      for (const { key, child } of leaves) {
        const c = new Cursor(key, sizes, file.path);
        const length = c.u32();
        const mask = c.u32();
        const offsets = Array.from({ length: rank }, () => c.uint(8));
        const index = offsets.map((offset, axis) => offset / chunks[axis]);
        if (mask !== 0) {
          throw new Hdf5UnsupportedError(
            path,
            `chunk [${index}] was stored with some of its filters skipped`,
          );
        }
        file.check({ offset: child, length }, `chunk [${index}] of "${path}"`);
        refs.set(rank === 0 ? "0" : index.join("."), { offset: child, length });
      }
    } else if (layout.index === ChunkIndex.singleChunk) {
      const length = layout.single?.size ?? chunkBytes;
      if (layout.single && layout.single.mask !== 0) {
        throw new Hdf5UnsupportedError(
          path,
          "its chunk was stored with some of its filters skipped",
        );
      }
      file.check({ offset: layout.address, length }, `the chunk of "${path}"`);
      refs.set(zeroKey, { offset: layout.address, length });
    } else {
      throw new Hdf5UnsupportedError(
        path,
        `chunk index type ${layout.index} is not supported yet`,
      );
    }
  }
  return refs;
}

/**
 * A classic NetCDF file seen as a Zarr v2 group: the metadata documents of
 * the group and of each variable, and the range of the file each chunk is.
 * A fixed variable's contiguous bytes are cut into chunks of about
 * {@linkcode CONTIGUOUS_CHUNK_BYTES} along its first axis; a record
 * variable has one chunk per record, its slab of that record.
 *
 * @module
 */

import { CONTIGUOUS_CHUNK_BYTES } from "../hdf5/chunk_index.ts";
import type { JsonValue } from "../hdf5/values.ts";
import type { Header, Variable } from "./header.ts";
import { isChar } from "./types.ts";

/** A range of the file; `padTo` for a short last chunk, zero-padded to a whole one. */
export interface ChunkRange {
  offset: number;
  length: number;
  padTo?: number;
}

/** The Zarr chunk shape of a variable. */
export function chunkShape(v: Variable): number[] {
  if (v.shape.length === 0) return [];
  if (v.record) return [1, ...v.shape.slice(1)];
  const rowBytes = v.slab / v.shape[0];
  const rows = Math.floor(CONTIGUOUS_CHUNK_BYTES / Math.max(1, rowBytes));
  return [Math.max(1, Math.min(v.shape[0], rows)), ...v.shape.slice(1)];
}

/** The `.zarray` of a variable, with `chunks` as its chunk shape. */
export function zarray(
  v: Variable,
  chunks: number[],
): Record<string, JsonValue> {
  const fill = v.attributes._FillValue;
  return {
    zarr_format: 2,
    shape: v.shape,
    chunks,
    dtype: v.type.dtype,
    compressor: null,
    filters: null,
    fill_value: !isChar(v.type) && fill !== undefined && !Array.isArray(fill)
      ? fill
      : null,
    order: "C",
    dimension_separator: ".",
  };
}

/** The `.zattrs` of a variable: its attributes and `_ARRAY_DIMENSIONS`. */
export function zattrs(v: Variable): Record<string, JsonValue> {
  return { ...v.attributes, _ARRAY_DIMENSIONS: v.dimensions };
}

/**
 * The metadata document `key` (`.zgroup`, `.zattrs`, `name/.zarray`,
 * `name/.zattrs`, without a leading slash) of the group; `undefined` for
 * any other key.
 */
export function metadataDocument(
  header: Header,
  variables: Map<string, Variable>,
  key: string,
): Record<string, JsonValue> | undefined {
  if (key === ".zgroup") return { zarr_format: 2 };
  if (key === ".zattrs") return header.attributes;
  const slash = key.lastIndexOf("/");
  const v = variables.get(key.slice(0, slash));
  if (v === undefined) return undefined;
  const document = key.slice(slash + 1);
  return document === ".zarray"
    ? zarray(v, chunkShape(v))
    : document === ".zattrs"
    ? zattrs(v)
    : undefined;
}

/** The keys of every metadata document of the group. */
export function* metadataKeys(header: Header): Generator<string> {
  yield ".zgroup";
  yield ".zattrs";
  for (const v of header.variables) {
    yield `${v.name}/.zarray`;
    yield `${v.name}/.zattrs`;
  }
}

/**
 * The range of chunk `key` (`3.0.0`; `0` for a scalar) of `v`, `undefined`
 * for a key that is no chunk of it.
 */
export function chunkRange(
  header: Header,
  v: Variable,
  key: string,
): ChunkRange | undefined {
  const chunks = chunkShape(v);
  const coords = key.split(".").map((part) =>
    /^\d+$/.test(part) ? Number(part) : NaN
  );
  if (v.shape.length === 0) {
    return key === "0" ? { offset: v.begin, length: v.slab } : undefined;
  }
  if (
    coords.length !== v.shape.length ||
    coords.some((c, axis) => !(c * chunks[axis] < v.shape[axis])) ||
    coords.slice(1).some((c) => c !== 0)
  ) return undefined;
  const [index] = coords;
  if (v.record) {
    return { offset: v.begin + index * header.recordSize, length: v.slab };
  }
  const rowBytes = v.slab / v.shape[0];
  const rows = Math.min(chunks[0], v.shape[0] - index * chunks[0]);
  const range = {
    offset: v.begin + index * chunks[0] * rowBytes,
    length: rows * rowBytes,
  };
  return rows < chunks[0] ? { ...range, padTo: chunks[0] * rowBytes } : range;
}

/**
 * The result of a selection that holds no element, such as any selection of
 * a NetCDF record variable with no records yet: zarrita 0.7 fails on one
 * ("Input contains an empty iterator"), where NumPy gives an empty array.
 *
 * @module
 */

import * as zarr from "zarrita";
import { sliceIndices, type SliceLike } from "./slice_indices.ts";

/**
 * An empty result of `arr`'s type and of the shape `selection` gives, when
 * it selects no element; `undefined` when it selects some (or is one that
 * zarrita should judge: a step below 1, an index out of bounds).
 *
 * @param arr the array
 * @param selection a selection padded to the array's rank
 */
export function emptySelection(
  arr: zarr.Array<zarr.DataType, zarr.Readable>,
  selection: readonly (number | SliceLike | null)[] | null,
): zarr.Chunk<zarr.DataType> | undefined {
  const shape: number[] = [];
  for (const [axis, size] of arr.shape.entries()) {
    const index = selection?.[axis] ?? null;
    if (typeof index === "number") {
      if (size === 0) return undefined;
      continue;
    }
    const indices = sliceIndices(index, size);
    if (indices === undefined) return undefined;
    shape.push(indices.length);
  }
  if (!shape.includes(0)) return undefined;
  const stride = shape.map((_, axis) =>
    shape.slice(axis + 1).reduce((a, b) => a * b, 1)
  );
  return { data: emptyValues(arr.dtype), shape, stride };
}

function emptyValues(dtype: zarr.DataType): zarr.Chunk<zarr.DataType>["data"] {
  const text = /^v2:([US])(\d+)$/.exec(dtype);
  if (text) {
    return text[1] === "U"
      ? new zarr.UnicodeStringArray(Number(text[2]), 0)
      : new zarr.ByteStringArray(Number(text[2]), 0);
  }
  const typed: Record<
    string,
    new (length: number) => zarr.Chunk<zarr.DataType>["data"]
  > = {
    int8: Int8Array,
    int16: Int16Array,
    int32: Int32Array,
    int64: BigInt64Array,
    uint8: Uint8Array,
    uint16: Uint16Array,
    uint32: Uint32Array,
    uint64: BigUint64Array,
    float32: Float32Array,
    float64: Float64Array,
    bool: zarr.BoolArray,
  };
  return typed[dtype] ? new typed[dtype](0) : [];
}

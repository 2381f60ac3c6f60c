/**
 * `show`'s array side: a variable of a NetCDF or HDF5 file or a Zarr
 * hierarchy, a `--slice` of it read through `getArray`, and its values as a
 * table (one row per element, an index column per kept axis) or nested
 * lists (as NumPy's `tolist()`).
 *
 * @module
 */

import type { FileInfo } from "../base/types.ts";
import type { ArchiveView } from "./archive_path.ts";
import { hdf5Listing } from "./hdf5_info.ts";
import { quotePath } from "./io.ts";
import { type KeptAxis, parseSlice } from "./slice_spec.ts";
import { jsonCell, type ValueTable } from "./value_table.ts";

/** The most values `show` reads without a `--slice` that asks for them. */
export const MOST_UNASKED = 1_000_000;

/** The values read, and how to lay them out. */
export interface ArrayValues {
  /** The variable as named on the command line. */
  variable: string;
  /** The axes the slice keeps, with the indices they cover. */
  kept: KeptAxis[];
  /** Whether the values are `float32` (printed by their shortest decimal). */
  float32: boolean;
  /** One row per value: an index column per kept axis, then the value. */
  table(): ValueTable;
  /** The values as nested lists, one level per kept axis. */
  nested(): unknown;
}

/**
 * `slice` of `variable` of `entry` (a NetCDF/HDF5 file or a Zarr directory;
 * no `variable` for a directory that is itself an array). A missing
 * variable fails naming the ones there are.
 */
export async function arrayValues(
  view: ArchiveView,
  entry: FileInfo,
  options: { variable?: string; slice?: string },
): Promise<ArrayValues> {
  const { openArray } = await import("../zarr/array_part.ts");
  const { getArray } = await import("../zarr/get_array.ts");
  const root = entry.name;
  const { variable, slice } = options;
  if (variable === undefined && entry.type === "file") {
    throw new Error(
      `show: name the variable of ${quotePath(root)} with --var${await known(
        view,
        entry,
      )}`,
    );
  }
  let arr;
  try {
    arr = await openArray(view, root, variable ?? "");
  } catch (error) {
    const names = await variables(view, entry).catch(() => undefined);
    if (names === undefined || names.includes(variable ?? "")) throw error;
    throw new Error(
      variable === undefined
        ? `show: ${
          quotePath(root)
        } is a Zarr group: name its array with --var${await known(view, entry)}`
        : `show: ${quotePath(root)} has no variable ${
          JSON.stringify(variable)
        }${await known(view, entry)}`,
      { cause: error },
    );
  }
  const shape = arr.shape;
  const dimensions = arr.attrs?._ARRAY_DIMENSIONS ?? arr.dimensionNames;
  const names = shape.map((_, i) =>
    Array.isArray(dimensions) && typeof dimensions[i] === "string"
      ? dimensions[i] as string
      : `dim_${i}`
  );
  const count = shape.reduce((a, b) => a * b, 1);
  if (slice === undefined && count > MOST_UNASKED) {
    throw new Error(
      `show: ${JSON.stringify(variable ?? root)} has ${count} values (shape [${
        shape.join(", ")
      }]): pick some with --slice, or --slice=... for all`,
    );
  }
  const { selection, kept } = parseSlice(slice, shape, names);
  const result = await getArray(view, root, variable ?? "", selection);
  const data = result.data as ArrayLike<unknown>;
  const stride = result.stride;
  const float32 = data instanceof Float32Array;
  const label = variable ?? root.split("/").at(-1)!;
  const at = (position: number[]) =>
    data[position.reduce((sum, p, k) => sum + p * stride[k], 0)];
  return {
    variable: label,
    kept,
    float32,
    table() {
      const rows: unknown[][] = [];
      for (const position of positions(kept.map((a) => a.indices.length))) {
        rows.push([
          ...position.map((p, k) => kept[k].indices[p]),
          at(position),
        ]);
      }
      return { columns: [...kept.map((a) => a.name), label], rows };
    },
    nested() {
      const build = (prefix: number[]): unknown =>
        prefix.length === kept.length
          ? jsonCell(at(prefix), float32)
          : kept[prefix.length].indices.map((_, i) => build([...prefix, i]));
      return build([]);
    },
  };
}

/** Every position of an array of `shape`, in C order. */
function* positions(shape: number[]): Generator<number[]> {
  if (shape.some((n) => n === 0)) return;
  const position = shape.map(() => 0);
  while (true) {
    yield [...position];
    let axis = shape.length - 1;
    while (axis >= 0 && ++position[axis] === shape[axis]) {
      position[axis--] = 0;
    }
    if (axis < 0) return;
  }
}

/** ` (it has: a, b, c)`, or nothing when the variables cannot be listed. */
async function known(view: ArchiveView, entry: FileInfo): Promise<string> {
  const names = await variables(view, entry).catch(() => undefined);
  return names === undefined || names.length === 0
    ? ""
    : ` (it has: ${names.join(", ")})`;
}

/** The variables of an HDF5/NetCDF4 file, or the arrays below a Zarr directory. */
async function variables(
  view: ArchiveView,
  entry: FileInfo,
): Promise<string[] | undefined> {
  if (entry.type === "file") {
    return (await hdf5Listing(view, entry))?.variables.map((v) => v.path);
  }
  const prefix = entry.name === "" ? "" : `${entry.name}/`;
  return (await view.find(entry.name))
    .filter((p) => /(^|\/)(\.zarray|zarr\.json)$/.test(p))
    .map((p) => p.slice(prefix.length).replace(/\/?(\.zarray|zarr\.json)$/, ""))
    .filter((p) => p !== "");
}

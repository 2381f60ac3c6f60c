/**
 * NetCDF-4 conventions over HDF5: dimension names from dimension scales
 * (as xarray writes them to Zarr, `_ARRAY_DIMENSIONS`), and the attributes
 * netCDF keeps for itself, which are hidden.
 *
 * @module
 */

import { type Attribute, attributeValue, elementCount } from "./attributes.ts";
import { vlenItems } from "./strings.ts";
import { Cursor } from "./cursor.ts";
import type { GlobalHeap } from "./global_heap.ts";
import type { Hdf5Object } from "./hierarchy.ts";

/** Attributes of HDF5 dimension scales and netCDF-4 bookkeeping, not shown. */
export const HIDDEN_ATTRIBUTES = new Set([
  "DIMENSION_LIST",
  "REFERENCE_LIST",
  "_Netcdf4Dimid",
  "_Netcdf4Coordinates",
  "_NCProperties",
  "_nc3_strict",
  "_IsNetcdf4",
  "_SuperblockVersion",
]);

/**
 * A variable's name as netCDF gives it: netCDF-C stores a variable named
 * like a dimension it is not the coordinate of as `_nc4_non_coord_NAME`.
 */
export function variableName(path: string): string {
  return path.split("/").map((part) => part.replace(/^_nc4_non_coord_/, ""))
    .join("/");
}

/** What netCDF writes as the NAME of a dimension that has no variable. */
const DIMENSION_ONLY = "This is a netCDF dimension but not a netCDF variable";

/** Whether a dataset is a dimension scale (`CLASS` = `DIMENSION_SCALE`). */
export async function isDimensionScale(
  object: Hdf5Object,
  heap: GlobalHeap,
): Promise<boolean> {
  const cls = object.attributes.find((a) => a.name === "CLASS");
  return cls !== undefined &&
    await attributeValue(cls, heap) === "DIMENSION_SCALE";
}

/** Whether a dataset only stands for a netCDF dimension (no variable): hidden. */
export async function isDimensionOnly(
  object: Hdf5Object,
  heap: GlobalHeap,
): Promise<boolean> {
  const name = object.attributes.find((a) => a.name === "NAME");
  if (name === undefined) return false;
  const value = await attributeValue(name, heap);
  return typeof value === "string" && value.startsWith(DIMENSION_ONLY);
}

/**
 * The dimension names of a dataset: for each axis the name of the first
 * dimension scale its `DIMENSION_LIST` attaches; a dimension scale's one
 * axis is itself. `undefined` when the dataset names none.
 */
export async function dimensionNames(
  object: Hdf5Object,
  byAddress: Map<number, Hdf5Object>,
  heap: GlobalHeap,
): Promise<string[] | undefined> {
  const rank = object.dataset?.space?.shape.length ?? 0;
  const list = object.attributes.find((a) => a.name === "DIMENSION_LIST");
  if (list !== undefined && list.type.vlen?.base.class === 7) {
    const items = await vlenItems(
      list.data,
      elementCount(list.space),
      list.type.vlen.base.size,
      heap,
    );
    const names = items.map((refs) => {
      const address = new Cursor(refs, heap.sizes, heap.file.path).offset();
      const target = byAddress.get(address);
      return target === undefined ? undefined : baseName(target.path);
    });
    if (names.length === rank && names.every((n) => n !== undefined)) {
      return names as string[];
    }
  }
  if (rank === 1 && await isDimensionScale(object, heap)) {
    return [baseName(object.path)];
  }
  return undefined;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Whether an attribute is shown: not bookkeeping, nor a dimension scale's own `CLASS` and `NAME`. */
export function isShown(attr: Attribute, scale: boolean): boolean {
  if (HIDDEN_ATTRIBUTES.has(attr.name)) return false;
  return !(scale && (attr.name === "CLASS" || attr.name === "NAME"));
}

/**
 * What `info` adds for a classic NetCDF file: its format, its dimensions
 * and its variables as `netcdfStore` presents them to Zarr.
 *
 * @module
 */

import { chunkShape } from "../formats/netcdf/classic_view.ts";
import { formatName, type Header } from "../formats/netcdf/header.ts";
import type { Hdf5Listing } from "./hdf5_info.ts";

/** A classic file's listing: the variables as for HDF5, with the format and dimensions. */
export interface ClassicListing extends Hdf5Listing {
  /** `CDF-1 (classic)`, `CDF-2 (64-bit offset)` or `CDF-5 (64-bit data)`. */
  format: string;
  /** The dimensions in the file's order; the record dimension's size is the record count. */
  dimensions: { name: string; size: number; unlimited: boolean }[];
}

/** The listing of a classic file whose header is read. */
export function classicListing(header: Header): ClassicListing {
  const variables = header.variables.map((v) => ({
    path: v.name,
    shape: v.shape,
    dtype: v.type.dtype,
    chunks: v.record ? chunkShape(v) : null,
    dimensions: v.dimensions,
    codecs: [],
  }));
  variables.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return {
    format: formatName(header.version),
    dimensions: header.dimensions.map(({ name, size, unlimited }) => ({
      name,
      size,
      unlimited,
    })),
    variables,
    problems: [],
  };
}

/** `info`'s lines before the variables: the format and the dimensions. */
export function classicLines(listing: ClassicListing): string[] {
  const dimensions = listing.dimensions.map((d) =>
    `${d.name} = ${d.size}${d.unlimited ? " (unlimited)" : ""}`
  );
  return [
    `classic NetCDF, ${listing.format}`,
    `${listing.dimensions.length} dimensions: ${dimensions.join(", ")}`,
  ];
}

/**
 * What `info` adds for a classic NetCDF file: its format, its dimensions
 * and its variables as `netcdfStore` presents them to Zarr.
 *
 * @module
 */

import { chunkShape } from "../formats/netcdf/classic_view.ts";
import { formatName, type Header } from "../formats/netcdf/header.ts";
/** What a classic file's listing has besides its variables. */
export interface ClassicSummary {
  /** `CDF-1 (classic)`, `CDF-2 (64-bit offset)` or `CDF-5 (64-bit data)`. */
  format: string;
  /** The dimensions in the file's order; the record dimension's size is the record count. */
  dimensions: { name: string; size: number; unlimited: boolean }[];
}

/** The format and dimensions of a classic file whose header is read. */
export function classicSummary(header: Header): ClassicSummary {
  return {
    format: formatName(header.version),
    dimensions: header.dimensions.map(({ name, size, unlimited }) => ({
      name,
      size,
      unlimited,
    })),
  };
}

/** The variables of a classic file, sorted by name, as `info` lists them. */
export function classicVariables(header: Header) {
  const variables = header.variables.map((v) => ({
    path: v.name,
    shape: v.shape,
    dtype: v.type.dtype,
    chunks: v.record ? chunkShape(v) : null,
    dimensions: v.dimensions,
    codecs: [] as string[],
  }));
  return variables.sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0
  );
}

/** `info`'s lines before the variables: the format and the dimensions. */
export function classicLines(listing: ClassicSummary): string[] {
  const dimensions = listing.dimensions.map((d) =>
    `${d.name} = ${d.size}${d.unlimited ? " (unlimited)" : ""}`
  );
  return [
    `classic NetCDF, ${listing.format}`,
    `${listing.dimensions.length} dimensions: ${dimensions.join(", ")}`,
  ];
}

/**
 * Filter pipeline messages, and the Zarr v2 codecs they map to.
 *
 * @module
 */

import type { Cursor } from "./cursor.ts";
import { Hdf5FormatError } from "./errors.ts";

/** One filter of a pipeline. */
export interface Filter {
  id: number;
  name?: string;
  /** Bit 0: optional (a chunk may have skipped it). */
  flags: number;
  values: number[];
}

/** Filter ids. */
export const FilterId = { deflate: 1, shuffle: 2, fletcher32: 3 } as const;

/** Reads a filter pipeline message. */
export function readFilters(c: Cursor): Filter[] {
  const version = c.u8();
  const count = c.u8();
  if (version === 1) c.skip(6);
  else if (version !== 2) {
    throw new Hdf5FormatError(
      c.path,
      `filter pipeline version ${version} at address ${c.at}`,
    );
  }
  const filters: Filter[] = [];
  for (let i = 0; i < count; i++) {
    const id = c.u16();
    const nameLength = version === 1 || id >= 256 ? c.u16() : 0;
    const flags = c.u16();
    const valueCount = c.u16();
    let name: string | undefined;
    if (nameLength > 0) {
      const bytes = c.take(
        version === 1 ? Math.ceil(nameLength / 8) * 8 : nameLength,
      );
      name = new TextDecoder().decode(bytes).replace(/\0.*$/s, "");
    }
    const values = Array.from({ length: valueCount }, () => c.u32());
    if (version === 1 && valueCount % 2 === 1) c.skip(4);
    filters.push({ id, name, flags, values });
  }
  return filters;
}

/** Zarr v2 codecs of a pipeline, or why it has none. */
export interface ZarrCodecs {
  compressor: Record<string, unknown> | null;
  filters: Record<string, unknown>[] | null;
  /** Whether each chunk ends in a Fletcher-32 checksum to strip. */
  fletcher32: boolean;
  problem?: string;
}

/**
 * The Zarr codecs of an HDF5 pipeline: deflate as `zlib`, shuffle as the
 * `shuffle` filter, a final Fletcher-32 as checksum bytes the store strips.
 */
export function zarrCodecs(
  pipeline: Filter[],
  elementSize: number,
): ZarrCodecs {
  const codecs: ZarrCodecs = {
    compressor: null,
    filters: null,
    fletcher32: false,
  };
  const zarrFilters: Record<string, unknown>[] = [];
  for (const [i, filter] of pipeline.entries()) {
    if (filter.id === FilterId.fletcher32 && i === pipeline.length - 1) {
      codecs.fletcher32 = true;
    } else if (filter.id === FilterId.shuffle && codecs.compressor === null) {
      zarrFilters.push({
        id: "shuffle",
        elementsize: filter.values[0] ?? elementSize,
      });
    } else if (filter.id === FilterId.deflate && codecs.compressor === null) {
      codecs.compressor = { id: "zlib", level: filter.values[0] ?? 6 };
    } else {
      const name = filter.name ? ` (${filter.name})` : "";
      return {
        ...codecs,
        problem: `HDF5 filter ${filter.id}${name} is not supported here`,
      };
    }
  }
  if (zarrFilters.length > 0) codecs.filters = zarrFilters;
  return codecs;
}

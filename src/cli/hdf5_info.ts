/**
 * What `info` adds for a file named as an HDF5 or NetCDF file (`.nc`,
 * `.nc4`, `.h5`, `.hdf5`, `.he5`): its variables (and, of a classic
 * NetCDF file, its format and dimensions: see `netcdf_info.ts`) with their
 * shapes, dtypes and chunking, as `hdf5Store` presents them to Zarr, and
 * the variables it cannot present (a file that cannot be read as HDF5 at
 * all is one such problem, so that `info` still shows its entry).
 *
 * @module
 */

import type { ByteSource } from "../formats/source.ts";
import type { FileInfo } from "../base/types.ts";
import { readZarrView } from "../formats/hdf5/zarr_view.ts";
import type { Hdf5Problem } from "../formats/hdf5/zarr_view.ts";
import { Hdf5UnsupportedError } from "../formats/hdf5/errors.ts";
import { openFile } from "../formats/netcdf/open_file.ts";
import { FormatError } from "../base/format_error.ts";
import {
  classicLines,
  type ClassicSummary,
  classicSummary,
  classicVariables,
} from "./netcdf_info.ts";
import type { JsonValue } from "../formats/hdf5/values.ts";
import { displayPath } from "./io.ts";

const NAMES = /\.(nc|nc4|h5|hdf5|he5)$/i;

/** One variable (a dataset of the file). */
export interface Hdf5Variable {
  /** Its path in the file (`forecast/precip`). */
  path: string;
  /** Its shape (`[]` for a scalar). */
  shape: number[];
  /** Its NumPy dtype (`<f4`). */
  dtype: string;
  /** Its chunk shape; `null` when stored in one piece. */
  chunks: number[] | null;
  /** Its dimension names, when the file has them. */
  dimensions?: string[];
  /** Its filters and compression (`fletcher32`, `shuffle`, `zlib`). */
  codecs: string[];
}

/** The variables of an HDF5 file, and those left out with why. */
export interface Hdf5Listing {
  /** Variables by path. */
  variables: Hdf5Variable[];
  /** What could not be presented. */
  problems: Hdf5Problem[];
}

/**
 * The variables of `entry` when it is named as an HDF5 or NetCDF file
 * (classic or NetCDF4), `undefined` for any other entry. Other names are
 * not read: on real installations every content request counts as a
 * download.
 */
export async function hdf5Listing(
  source: ByteSource,
  entry: FileInfo,
): Promise<Hdf5Listing | (Hdf5Listing & ClassicSummary) | undefined> {
  if (entry.type !== "file" || !NAMES.test(entry.name)) return undefined;
  let view;
  try {
    // A file that cannot be read (restricted, say) is shown as listed.
    const file = await openFile(source, entry.name).catch((error) => {
      if (error instanceof FormatError) throw error;
    });
    if (file === undefined) return undefined;
    if (file.kind === "classic") {
      const { header } = file;
      return {
        ...classicSummary(header),
        variables: classicVariables(header),
        problems: [],
      };
    }
    view = await readZarrView(file.source, entry.name);
  } catch (error) {
    const unreadable = error instanceof FormatError ||
      error instanceof Hdf5UnsupportedError;
    if (!unreadable) throw error;
    return { variables: [], problems: [{ path: "/", reason: error.message }] };
  }
  const variables = [...view.arrays.values()].map((array) => {
    const { path, dataset } = array;
    const zarray = view.metadata.get(`${path}/.zarray`)!;
    const dims = view.metadata.get(`${path}/.zattrs`)?._ARRAY_DIMENSIONS;
    const { layout } = dataset;
    return {
      path,
      shape: zarray.shape as number[],
      dtype: zarray.dtype as string,
      chunks: layout.kind === "chunked" ? layout.chunks : null,
      ...(Array.isArray(dims) ? { dimensions: dims as string[] } : {}),
      codecs: [
        ...(array.codecs.fletcher32 ? ["fletcher32"] : []),
        ...codecIds(zarray.compressor, zarray.filters),
      ],
    };
  });
  variables.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { variables, problems: view.problems };
}

/** `info`'s lines for the variables: one each, then one per problem. */
export function hdf5Lines(
  listing: Hdf5Listing | (Hdf5Listing & ClassicSummary),
): string[] {
  const lines = [
    ...("format" in listing ? classicLines(listing) : []),
    `${listing.variables.length} variables:`,
  ];
  for (const v of listing.variables) {
    const dims = v.dimensions && v.dimensions.length > 0
      ? ` (${v.dimensions.join(", ")})`
      : "";
    const chunks = v.chunks === null
      ? "contiguous"
      : `chunks [${v.chunks.join(", ")}]`;
    const codecs = v.codecs.length > 0 ? ` ${v.codecs.join("+")}` : "";
    lines.push(
      `  ${displayPath(v.path)}  ${v.dtype} [${
        v.shape.join(", ")
      }]${dims}  ${chunks}${codecs}`,
    );
  }
  for (const problem of listing.problems) {
    lines.push(`  ${displayPath(problem.path)}  left out: ${problem.reason}`);
  }
  return lines;
}

function codecIds(compressor: JsonValue, filters: JsonValue): string[] {
  const codecs = [...(Array.isArray(filters) ? filters : []), compressor];
  return codecs.flatMap((codec) =>
    codec !== null && typeof codec === "object" && "id" in codec
      ? [String(codec.id)]
      : []
  );
}

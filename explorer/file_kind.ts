/**
 * What kind of preview a file gets, from its name (and, for a folder, the
 * names inside it).
 *
 * @module
 */

/** The kinds of preview the explorer has. */
export type Kind =
  | "table"
  | "text"
  | "parquet"
  | "zip"
  | "hdf5"
  | "zarr"
  | "geotiff"
  | "image"
  | "other";

const BY_EXTENSION: Record<string, Kind> = {
  tab: "table",
  csv: "table",
  tsv: "table",
  txt: "text",
  md: "text",
  markdown: "text",
  json: "text",
  xml: "text",
  yaml: "text",
  yml: "text",
  log: "text",
  ini: "text",
  cfg: "text",
  toml: "text",
  py: "text",
  r: "text",
  sh: "text",
  do: "text",
  sps: "text",
  html: "text",
  parquet: "parquet",
  pq: "parquet",
  zip: "zip",
  nc: "hdf5",
  nc4: "hdf5",
  cdf: "hdf5",
  h5: "hdf5",
  hdf5: "hdf5",
  he5: "hdf5",
  tif: "geotiff",
  tiff: "geotiff",
  png: "image",
  jpg: "image",
  jpeg: "image",
  gif: "image",
  webp: "image",
  svg: "image",
};

/** Names that mark a folder as a Zarr group or array. */
const ZARR_MARKERS = new Set([".zgroup", ".zarray", ".zmetadata", "zarr.json"]);

/** The kind of a file named `name`; `zarr` for a folder holding Zarr metadata. */
export function kindOf(name: string, childNames: string[] = []): Kind {
  if (childNames.some((child) => ZARR_MARKERS.has(child))) return "zarr";
  const extension = /\.([^./]+)$/.exec(name)?.[1].toLowerCase() ?? "";
  if (
    /^readme|^license|^licence|^changelog/i.test(
      name.slice(name.lastIndexOf("/") + 1),
    )
  ) {
    return BY_EXTENSION[extension] ?? "text";
  }
  return BY_EXTENSION[extension] ?? "other";
}

/** The delimiter of a table file: tab for `.tab`/`.tsv`, else comma. */
export function delimiterOf(name: string): string {
  return /\.(tab|tsv)$/i.test(name) ? "\t" : ",";
}

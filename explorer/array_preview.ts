/**
 * NetCDF, HDF5 and Zarr: the variables with their dimensions, dtypes,
 * chunking and attributes, and a chosen variable drawn: a 2-D slice with a
 * colour scale and its legend (the other dimensions' indices as sliders),
 * a 1-D variable as a line. Values are read with `getArray`, decoded in the
 * pool's workers when the page has a pool.
 *
 * @module
 */

/// <reference lib="dom" />

import * as zarr from "zarrita";
import { getArray, zarrStore } from "../zarr.ts";
import { netcdfStore } from "../netcdf.ts";
import type { ByteSource } from "../zarr.ts";
import type { ReadOnlyTree } from "../mod.ts";
import { cellText, el, table } from "./dom.ts";
import { drawField, drawLine } from "./plot.ts";

/** The most values drawn along one axis: longer axes are read with a step. */
const DRAWN_PER_AXIS = 600;

/** One variable of the hierarchy. */
interface Variable {
  path: string;
  shape: number[];
  dtype: string;
  chunks: number[];
  dimensions: string[];
  attributes: Record<string, unknown>;
}

/** Where the values are read: the source and the root `getArray` takes. */
interface Place {
  /** What `getArray` reads through: the pool for a dataset's file, else the source. */
  reader: ByteSource;
  /** The file's tree, or the dataset for a Zarr folder. */
  source: ReadOnlyTree;
  root: string;
  /** Whether the root is one file (HDF5/NetCDF) rather than a Zarr folder. */
  file: boolean;
}

/** Lists the variables of `root` and draws the one picked. */
export async function showArrays(
  view: HTMLElement,
  place: Place,
): Promise<void> {
  const variables = await listVariables(place);
  const plot = el("div", { class: "plot" });
  const rows = variables.map((v) => [
    v.path,
    v.dimensions.length > 0 ? v.dimensions.join(", ") : "",
    v.shape.join(" × ") || "scalar",
    v.dtype,
    v.chunks.join(" × "),
    Object.entries(v.attributes)
      .filter(([name]) => name !== "_ARRAY_DIMENSIONS")
      .map(([name, value]) => `${name}: ${cellText(value)}`)
      .join("; "),
  ]);
  const listing = table(
    ["variable", "dimensions", "shape", "dtype", "chunks", "attributes"],
    rows,
  );
  listing.querySelectorAll("tbody tr").forEach((row, i) => {
    const cell = row.firstElementChild!;
    const button = el(
      "button",
      { type: "button", class: "link" },
      variables[i].path,
    );
    button.addEventListener(
      "click",
      () => void pick(plot, place, variables[i]),
    );
    cell.replaceChildren(button);
  });
  view.replaceChildren(el("div", { class: "table-wrap" }, listing), plot);
  const first = variables.find((v) => v.shape.length >= 2) ?? variables[0];
  if (first) await pick(plot, place, first);
}

async function listVariables(place: Place): Promise<Variable[]> {
  const store = place.file
    ? netcdfStore(place.source, place.root)
    : zarrStore(place.source, place.root);
  const found: Variable[] = [];
  const consolidated = await zarr.withConsolidatedMetadata(store).catch(() =>
    undefined
  );
  const paths = consolidated
    ? consolidated.contents().filter((c) => c.kind === "array").map((c) =>
      c.path
    )
    : await arrayPaths(place);
  for (const path of paths) {
    const location = zarr.root(consolidated ?? store).resolve(path);
    const arr = await zarr.open(location, { kind: "array" });
    const attributes = arr.attrs as Record<string, unknown>;
    const dims = attributes._ARRAY_DIMENSIONS ??
      (arr as unknown as { dimensionNames?: string[] }).dimensionNames;
    found.push({
      path: path.replace(/^\//, ""),
      shape: arr.shape,
      dtype: String(arr.dtype),
      chunks: arr.chunks,
      dimensions: Array.isArray(dims) ? dims.map(String) : [],
      attributes,
    });
  }
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

/** The arrays of a Zarr folder without consolidated metadata. */
async function arrayPaths(place: Place): Promise<string[]> {
  const prefix = place.root === "" ? "" : `${place.root}/`;
  return (await place.source.find(place.root))
    .filter((p) => /(^|\/)(\.zarray|zarr\.json)$/.test(p))
    .map((p) =>
      `/${p.slice(prefix.length).replace(/\/?(\.zarray|zarr\.json)$/, "")}`
    );
}

/** Sliders for the leading axes, and the drawing of the last one or two. */
async function pick(
  plot: HTMLElement,
  place: Place,
  variable: Variable,
): Promise<void> {
  const { shape } = variable;
  const drawn = Math.min(2, shape.length);
  const sliders = shape.slice(0, shape.length - drawn).map((length, axis) => {
    const input = el("input", {
      type: "range",
      min: "0",
      max: String(length - 1),
      value: "0",
      "aria-label": variable.dimensions[axis] ?? `axis ${axis}`,
    });
    const shown = el("output", {}, "0");
    input.addEventListener("input", () => shown.textContent = input.value);
    input.addEventListener("change", () => void draw());
    return {
      input,
      label: el(
        "label",
        {},
        `${variable.dimensions[axis] ?? `axis ${axis}`} (${length}) `,
        input,
        shown,
      ),
    };
  });
  const canvasArea = el("div", { class: "drawing" });
  plot.replaceChildren(
    el("h3", {}, variable.path),
    ...sliders.map((s) => s.label),
    canvasArea,
  );
  const draw = async () => {
    plot.dataset.state = "reading";
    const selection = shape.map((length, axis) => {
      if (axis < shape.length - drawn) return Number(sliders[axis].input.value);
      const step = Math.ceil(length / DRAWN_PER_AXIS);
      return zarr.slice(0, length, step);
    });
    const { data, shape: got } = await getArray(
      place.reader,
      place.root,
      variable.path,
      selection,
    );
    const values = data as ArrayLike<number>;
    if (got.length === 2) drawField(canvasArea, values, got[1], got[0]);
    else drawLine(canvasArea, values);
    plot.dataset.state = "drawn";
  };
  if (shape.length === 0) {
    const { data } = await getArray(place.reader, place.root, variable.path);
    canvasArea.replaceChildren(
      el("p", {}, `value: ${cellText((data as ArrayLike<unknown>)[0])}`),
    );
    return;
  }
  await draw();
}

/**
 * Drawings of values: a 2-D field on a colour scale with its legend (the
 * scale and the field's smallest and largest finite values), and a 1-D
 * line with its range.
 *
 * @module
 */

/// <reference lib="dom" />

import { colourAt, paint, valueRange } from "./colour_scale.ts";
import { el } from "./dom.ts";

const LINE_WIDTH = 600;
const LINE_HEIGHT = 200;

/** The field `values` (`width` × `height`, row by row) and its legend. */
export function drawField(
  area: HTMLElement,
  values: ArrayLike<number>,
  width: number,
  height: number,
): void {
  const { min, max } = valueRange(values);
  const canvas = el("canvas", {
    class: "field",
    role: "img",
    "aria-label": `${width} × ${height} values from ${min} to ${max}`,
  });
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d")!.putImageData(
    new ImageData(paint(values, min, max), width, height),
    0,
    0,
  );
  area.replaceChildren(canvas, legend(min, max));
}

/** A line through `values`, with its legend. */
export function drawLine(area: HTMLElement, values: ArrayLike<number>): void {
  const { min, max } = valueRange(values);
  const span = max > min ? max - min : 1;
  const points: string[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) continue;
    const x = values.length > 1 ? (i / (values.length - 1)) * LINE_WIDTH : 0;
    const y = LINE_HEIGHT - ((values[i] - min) / span) * LINE_HEIGHT;
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${LINE_WIDTH} ${LINE_HEIGHT}`);
  svg.setAttribute("class", "line");
  svg.setAttribute("role", "img");
  svg.setAttribute(
    "aria-label",
    `${values.length} values from ${min} to ${max}`,
  );
  const line = document.createElementNS(
    "http://www.w3.org/2000/svg",
    "polyline",
  );
  line.setAttribute("points", points.join(" "));
  svg.append(line);
  area.replaceChildren(svg, legend(min, max));
}

/** The colour bar with the smallest and largest value at its ends. */
function legend(min: number, max: number): HTMLElement {
  const bar = el("canvas", { class: "bar", "aria-hidden": "true" });
  bar.width = 200;
  bar.height = 12;
  const context = bar.getContext("2d")!;
  for (let x = 0; x < bar.width; x++) {
    const [r, g, b] = colourAt(x / (bar.width - 1));
    context.fillStyle = `rgb(${r} ${g} ${b})`;
    context.fillRect(x, 0, 1, bar.height);
  }
  const low = el(
    "span",
    { class: "min", "data-value": String(min) },
    format(min),
  );
  const high = el(
    "span",
    { class: "max", "data-value": String(max) },
    format(max),
  );
  return el("div", { class: "legend", "aria-label": "Legend" }, low, bar, high);
}

function format(value: number): string {
  return Number.isFinite(value) ? value.toPrecision(5) : "no finite value";
}

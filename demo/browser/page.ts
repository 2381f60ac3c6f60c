/**
 * The browser demo page: the dataset's tree, a Zarr array and a slice of
 * it picked by the user, read through a `RepoFsPool` (or on the main
 * thread) and drawn with a colour scale and its min/max, with what the read
 * cost the repository (from the emulator's counters).
 *
 * Query parameters pick what is drawn first: `array` (its path in the
 * store, default the first 3-D one) and `via` (`pool`, the default, or
 * `main`). `document.body.dataset.state` says `drawn` or `failed` once a
 * read is over.
 *
 * @module
 */

/// <reference lib="dom" />

import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../../mod.ts";
import { getArray } from "../../zarr.ts";
import { colourAt, paint, valueRange } from "../../explorer/colour_scale.ts";
import { renderTree } from "./tree_view.ts";

/** What `/config.json` says. */
interface Config {
  host: string;
  pid: string;
  store: string;
}

/** The `.zarray` field the page uses (the sample is Zarr v2). */
interface ArrayMeta {
  shape: number[];
}

/** Workers of the page's pool. */
const WORKERS = 4;

const $ = <T extends HTMLElement>(selector: string) =>
  document.querySelector<T>(selector)!;

const params = new URLSearchParams(location.search);
const config: Config = await (await fetch("config.json")).json();
const fs = new RepoFs({ host: config.host, pid: config.pid });
let pool: RepoFsPool | undefined;
const metas = new Map<string, ArrayMeta>();

for (const zarray of await fs.glob(`${config.store}/**/.zarray`)) {
  const dir = zarray.slice(0, -"/.zarray".length);
  metas.set(
    dir,
    JSON.parse(new TextDecoder().decode(await fs.catFile(zarray))),
  );
}
const arrays = [...metas.keys()];

$("#dataset").textContent = `${config.pid} at ${config.host}`;
const select = $<HTMLSelectElement>("#array");
for (const dir of arrays) {
  select.add(new Option(dir.slice(config.store.length + 1), dir));
}
select.addEventListener("change", () => showAxes(select.value));
await renderTree(fs, $("#tree"), "", (dir) => metas.has(dir), (dir) => {
  select.value = dir;
  showAxes(dir);
  void read();
});

const wanted = params.get("array");
select.value = wanted
  ? `${config.store}/${wanted}`
  : arrays.find((dir) => metas.get(dir)!.shape.length === 3) ?? arrays[0];
if (params.get("via") === "main") {
  $<HTMLInputElement>("input[value=main]").checked = true;
}
showAxes(select.value);
$("#controls").addEventListener("submit", (event) => {
  event.preventDefault();
  void read();
});
await read();

/**
 * One input per axis: the leading axes take an index, the last two a
 * `start:stop` range (`:` for all), which is what is drawn.
 */
function showAxes(dir: string): void {
  const { shape } = metas.get(dir)!;
  const axes = $("#axes");
  axes.replaceChildren();
  shape.forEach((length, axis) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    const drawn = axis >= shape.length - 2;
    input.name = `axis${axis}`;
    input.value = drawn ? ":" : String(Math.floor(length / 2));
    input.size = 6;
    label.append(`axis ${axis} (${length}) `, input);
    axes.append(label);
  });
}

/** The selection the axis inputs describe. */
function selection(shape: number[]): (number | zarr.Slice)[] {
  return shape.map((length, axis) => {
    const text = $<HTMLInputElement>(`input[name=axis${axis}]`).value.trim();
    if (axis < shape.length - 2) return clamp(Number(text), length);
    const [start, stop] = text.split(":").map((s) => s.trim());
    return zarr.slice(
      start ? clamp(Number(start), length) : null,
      stop ? Number(stop) : null,
    );
  });
}

function clamp(index: number, length: number): number {
  if (!Number.isInteger(index)) throw new TypeError(`not an index: ${index}`);
  return Math.max(0, Math.min(length - 1, index));
}

/** Reads the selection, draws it, and shows what it cost. */
async function read(): Promise<void> {
  const dir = select.value;
  const { shape } = metas.get(dir)!;
  const via = $<HTMLInputElement>("input[name=via]:checked").value;
  document.body.dataset.state = "reading";
  $("#status").textContent = `reading ${dir} …`;
  try {
    const chosen = selection(shape);
    await fetch("counters/reset", { method: "POST" });
    const started = performance.now();
    const source = via === "pool"
      ? pool ??= new RepoFsPool(fs, {
        workers: WORKERS,
        workerUrl: new URL("worker.js", location.href),
      })
      : fs;
    const result = await getArray(
      source,
      config.store,
      dir.slice(config.store.length + 1),
      chosen,
    );
    const ms = performance.now() - started;
    const [height, width] = result.shape.length === 1
      ? [1, result.shape[0]]
      : result.shape.slice(-2);
    draw(result.data as ArrayLike<number>, width, height);
    const counters = await (await fetch("counters.json")).json();
    showFigures(counters, ms, via);
    $("#status").textContent = `${dir} [${
      chosen.map((s) =>
        typeof s === "number" ? s : `${s.start ?? ""}:${s.stop ?? ""}`
      )
        .join(", ")
    }]: ${width} × ${height} values`;
    document.body.dataset.state = "drawn";
  } catch (error) {
    $("#status").textContent = `failed: ${(error as Error).message}`;
    document.body.dataset.state = "failed";
  }
}

/** The field on the canvas, its colour bar and its min/max. */
function draw(values: ArrayLike<number>, width: number, height: number): void {
  const { min, max } = valueRange(values);
  const canvas = $<HTMLCanvasElement>("#image");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d")!.putImageData(
    new ImageData(paint(values, min, max), width, height),
    0,
    0,
  );
  const bar = $<HTMLCanvasElement>("#bar");
  const context = bar.getContext("2d")!;
  for (let x = 0; x < bar.width; x++) {
    const [r, g, b] = colourAt(x / (bar.width - 1));
    context.fillStyle = `rgb(${r} ${g} ${b})`;
    context.fillRect(x, 0, 1, bar.height);
  }
  $("#min").textContent = min.toPrecision(4);
  $("#max").textContent = max.toPrecision(4);
}

/** The emulator's counts for this read. */
function showFigures(
  counters: Record<string, number>,
  ms: number,
  via: string,
): void {
  const rows: [string, string | number][] = [
    [
      "read via",
      via === "pool" ? `a pool of ${WORKERS} workers` : "the main thread",
    ],
    ["time", `${ms.toFixed(0)} ms`],
    ["HEADs to the repository", counters.heads],
    ["peak concurrent HEADs", counters.peakConcurrentHeads],
    ["GETs on the access endpoint", counters.accessGets],
    ["GETs on the store", counters.storeGets],
    ["bytes sent", counters.storeBytes + counters.accessBytes],
    ["store requests with the token", counters.storeRequestsWithToken],
  ];
  $("#figures").replaceChildren(...rows.map(([name, value]) => {
    const row = document.createElement("tr");
    const [th, td] = [
      document.createElement("th"),
      document.createElement("td"),
    ];
    th.textContent = name;
    td.textContent = String(value);
    row.append(th, td);
    return row;
  }));
}

/**
 * The demo's dataset: a Zarr v2 group with compressed arrays in a directory
 * whose name looks like a file, beside the odds and ends real datasets hold
 * (a README, an ingested table whose listed size is short, nested folders).
 *
 * @module
 */

import type { EmulatorFileSpec } from "../emulator.ts";
import { buildZarrStore } from "../fixtures/zarr_writer.ts";

/**
 * Where the sample's Zarr group lives in the dataset.
 *
 * @example
 * ```ts
 * import { SAMPLE_STORE } from "./sample_dataset.ts";
 * console.log(`${SAMPLE_STORE}/.zmetadata`);
 * ```
 */
export const SAMPLE_STORE = "climate.zarr";

/**
 * Builds the sample dataset's files. `days` sets the length of the time axis
 * of the two big arrays (8 days per chunk).
 *
 * @example
 * ```ts ignore
 * import { startEmulator } from "../emulator.ts";
 * import { sampleDataset } from "./sample_dataset.ts";
 * await using emu = await startEmulator({ files: await sampleDataset(240) });
 * ```
 */
export async function sampleDataset(
  days = 240,
): Promise<Record<string, Uint8Array | string | EmulatorFileSpec>> {
  const [lat, lon] = [90, 180];
  const noise = lcg(7);
  const field = (f: (t: number, y: number, x: number) => number) => {
    const values = new Float32Array(days * lat * lon);
    let i = 0;
    for (let t = 0; t < days; t++) {
      for (let y = 0; y < lat; y++) {
        for (let x = 0; x < lon; x++) values[i++] = f(t, y, x);
      }
    }
    return values;
  };
  const temperature = field((t, y, x) =>
    15 - 0.35 * Math.abs(y - 45) +
    8 * Math.sin((2 * Math.PI * t) / 365) * Math.cos(x / 30) + noise()
  );
  const precipitation = field((t, y, x) =>
    Math.max(0, 3 * Math.sin(t / 9 + x / 20) + 2 * Math.cos(y / 7) + noise())
  );
  const elevation = new Int16Array(lat * lon).map((_, i) =>
    Math.round(1500 * Math.sin(i / 400) + 300 * noise())
  );
  const landMask = elevation.map((h) => (h > 0 ? 1 : 0));
  const chunks = [8, 45, 45];
  const store = await buildZarrStore([
    {
      path: "temperature",
      data: temperature,
      shape: [days, lat, lon],
      chunks,
      compressor: "gzip",
      dimensions: ["time", "lat", "lon"],
      attrs: { units: "degC" },
    },
    {
      path: "precipitation",
      data: precipitation,
      shape: [days, lat, lon],
      chunks,
      compressor: "zlib",
      dimensions: ["time", "lat", "lon"],
      attrs: { units: "mm/day" },
    },
    {
      path: "elevation",
      data: elevation,
      shape: [lat, lon],
      chunks: [45, 45],
      compressor: "gzip",
      dimensions: ["lat", "lon"],
    },
    {
      path: "land_mask",
      data: new Uint8Array(landMask),
      shape: [lat, lon],
      chunks: [lat, lon],
      dimensions: ["lat", "lon"],
    },
  ], { format: 2, consolidated: true, prefix: SAMPLE_STORE });
  const stations = "station\tlat\tlon\nA1\t51.5\t-0.1\nB2\t48.9\t2.4\n";
  return {
    ...store,
    "README.md":
      "# Sample climate dataset\n\nSynthetic; made by the repo-fs demo.\n",
    "tables/stations.tab": {
      content: stations,
      listedSize: stations.length - 20,
      contentType: "text/tab-separated-values",
    },
    "docs/methods v1.0.txt": "Methods: pseudo-random fields.\n",
    "runs/2024/42": "a file with a bare number for a name\n",
  };
}

/** Deterministic noise in [-0.5, 0.5). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
}

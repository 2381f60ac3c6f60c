/**
 * The sample dataset the emulator serves with `sample: true` (and
 * `repo-fs emulate --sample`): a consolidated Zarr v2 group of compressed
 * arrays in a directory whose name looks like a file, beside the odds and
 * ends real datasets hold: a README, an ingested table whose listed size is
 * short, nested folders, a name with a space and one that is a bare number.
 *
 * @module
 */

import type { EmulatorFileSpec } from "./options.ts";

/** Where the sample's Zarr group lives in the dataset. */
export const SAMPLE_STORE = "climate.zarr";

/** Days on the time axis of the big arrays when none are asked for. */
const SAMPLE_DAYS = 64;
const [LAT, LON] = [90, 180];

/** One array of the sample's Zarr group. */
interface SampleArray {
  name: string;
  dtype: "<f4" | "<i2" | "|u1";
  shape: number[];
  chunks: number[];
  compressor: "gzip" | "zlib" | null;
  dimensions: string[];
  attrs?: Record<string, string>;
  value: (at: number[]) => number;
}

/**
 * The sample dataset's files. `days` sets the length of the time axis of
 * the two big arrays (8 days per chunk).
 */
export async function sampleDataset(
  days = SAMPLE_DAYS,
): Promise<Record<string, Uint8Array | string | EmulatorFileSpec>> {
  const noise = lcg(7);
  const elevation = new Int16Array(LAT * LON).map((_, i) =>
    Math.round(1500 * Math.sin(i / 400) + 300 * noise())
  );
  const arrays: SampleArray[] = [
    {
      name: "temperature",
      dtype: "<f4",
      shape: [days, LAT, LON],
      chunks: [8, 45, 45],
      compressor: "gzip",
      dimensions: ["time", "lat", "lon"],
      attrs: { units: "degC" },
      value: ([t, y, x]) =>
        15 - 0.35 * Math.abs(y - 45) +
        8 * Math.sin((2 * Math.PI * t) / 365) * Math.cos(x / 30) + noise(),
    },
    {
      name: "precipitation",
      dtype: "<f4",
      shape: [days, LAT, LON],
      chunks: [8, 45, 45],
      compressor: "zlib",
      dimensions: ["time", "lat", "lon"],
      attrs: { units: "mm/day" },
      value: ([t, y, x]) =>
        Math.max(
          0,
          3 * Math.sin(t / 9 + x / 20) + 2 * Math.cos(y / 7) + noise(),
        ),
    },
    {
      name: "elevation",
      dtype: "<i2",
      shape: [LAT, LON],
      chunks: [45, 45],
      compressor: "gzip",
      dimensions: ["lat", "lon"],
      value: ([y, x]) => elevation[y * LON + x],
    },
    {
      name: "land_mask",
      dtype: "|u1",
      shape: [LAT, LON],
      chunks: [LAT, LON],
      compressor: null,
      dimensions: ["lat", "lon"],
      value: ([y, x]) => elevation[y * LON + x] > 0 ? 1 : 0,
    },
  ];
  const stations = "station\tlat\tlon\nA1\t51.5\t-0.1\nB2\t48.9\t2.4\n";
  return {
    ...await zarrGroup(arrays),
    "README.md":
      "# Sample climate dataset\n\nSynthetic; made by the repo-fs emulator.\n",
    "tables/stations.tab": {
      content: stations,
      listedSize: stations.length - 20,
      contentType: "text/tab-separated-values",
      tabular: true,
      original: stations.replaceAll("\t", ","),
    },
    "docs/methods v1.0.txt": "Methods: pseudo-random fields.\n",
    "runs/2024/42": "a file with a bare number for a name\n",
  };
}

/** The files of a consolidated Zarr v2 group at {@linkcode SAMPLE_STORE}. */
async function zarrGroup(
  arrays: SampleArray[],
): Promise<Record<string, Uint8Array | string>> {
  const metadata: Record<string, unknown> = { ".zgroup": { zarr_format: 2 } };
  const files: Record<string, Uint8Array | string> = {};
  for (const array of arrays) {
    metadata[`${array.name}/.zarray`] = {
      zarr_format: 2,
      shape: array.shape,
      chunks: array.chunks,
      dtype: array.dtype,
      compressor: array.compressor && { id: array.compressor, level: 5 },
      fill_value: 0,
      order: "C",
      filters: null,
    };
    metadata[`${array.name}/.zattrs`] = {
      ...array.attrs,
      _ARRAY_DIMENSIONS: array.dimensions,
    };
    for (const [key, bytes] of chunksOf(array)) {
      files[`${SAMPLE_STORE}/${array.name}/${key}`] = await compress(
        bytes,
        array.compressor,
      );
    }
  }
  for (const [key, doc] of Object.entries(metadata)) {
    files[`${SAMPLE_STORE}/${key}`] = JSON.stringify(doc);
  }
  files[`${SAMPLE_STORE}/.zmetadata`] = JSON.stringify({
    metadata,
    zarr_consolidated_format: 1,
  });
  return files;
}

const TYPED = { "<f4": Float32Array, "<i2": Int16Array, "|u1": Uint8Array };

/** Each chunk's key and bytes, edge chunks filled out with zeros. */
function* chunksOf(array: SampleArray): Generator<[string, Uint8Array]> {
  const { shape, chunks } = array;
  const grid = shape.map((n, axis) => Math.ceil(n / chunks[axis]));
  for (const chunk of cells(grid)) {
    const values = new TYPED[array.dtype](
      chunks.reduce((a, b) => a * b, 1),
    );
    let i = 0;
    for (const inner of cells(chunks)) {
      const at = inner.map((c, axis) => chunk[axis] * chunks[axis] + c);
      values[i++] = at.every((c, axis) => c < shape[axis])
        ? array.value(at)
        : 0;
    }
    yield [chunk.join("."), new Uint8Array(values.buffer)];
  }
}

/** Every index of a grid of the given shape, in C order. */
function* cells(shape: number[]): Generator<number[]> {
  const at = shape.map(() => 0);
  while (true) {
    yield [...at];
    let axis = shape.length - 1;
    while (axis >= 0 && ++at[axis] === shape[axis]) at[axis--] = 0;
    if (axis < 0) return;
  }
}

async function compress(
  bytes: Uint8Array,
  compressor: SampleArray["compressor"],
): Promise<Uint8Array> {
  if (compressor === null) return bytes;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(
      new CompressionStream(compressor === "gzip" ? "gzip" : "deflate"),
    );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Deterministic noise in [-0.5, 0.5). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  };
}

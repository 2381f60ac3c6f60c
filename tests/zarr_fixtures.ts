/**
 * Builds Zarr hierarchies in memory, as dataset files for the emulator:
 * Zarr v2 written by hand (flat or nested keys, gzip or zlib through
 * `CompressionStream`, C or F order, consolidated metadata), Zarr v3
 * written by zarrita, and sharded Zarr v3 written by hand (zarrita cannot
 * write shards). Chunks holding only the fill value are left out, as Zarr
 * writers do. Byte order is the platform's, which is little-endian on every
 * machine Deno runs on.
 *
 * @module
 */

import * as zarr from "zarrita";

/**
 * A typed array the fixtures can write; the Zarr data type follows from it.
 *
 * @example
 * ```ts
 * import type { NumericArray } from "./zarr_fixtures.ts";
 * const values: NumericArray = new Int16Array([1, 2, 3]);
 * ```
 */
export type NumericArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

/**
 * One array of a fixture hierarchy.
 *
 * @example
 * ```ts
 * import type { ArraySpec } from "./zarr_fixtures.ts";
 * const temperature: ArraySpec = {
 *   path: "temperature",
 *   data: new Float32Array(6 * 4),
 *   shape: [6, 4],
 *   chunks: [4, 3],
 *   compressor: "gzip",
 * };
 * ```
 */
export interface ArraySpec {
  /** Path inside the hierarchy, such as `temperature` or `surface/wind`; parent groups are written too. */
  path: string;
  /** Every value, in C order; the data type follows the typed array. */
  data: NumericArray;
  /** Length of each axis. */
  shape: number[];
  /** Chunk length along each axis (inner chunks when sharded). */
  chunks: number[];
  /** Default 0. Chunks holding nothing else are not written. */
  fillValue?: number;
  /** Chunk compression: v2 `compressor`, or a codec after `bytes` in a sharded v3 array. */
  compressor?: "gzip" | "zlib";
  /** v2 only: `.` (default, `0.0`) or `/` (`0/0`). */
  dimensionSeparator?: "." | "/";
  /** v2 only: memory order of chunks, default `C`. */
  order?: "C" | "F";
  /** v3 only: inner chunks per shard along each axis; sharded when set. */
  shard?: number[];
  /** Names of the axes: v2 `_ARRAY_DIMENSIONS`, v3 `dimension_names`. */
  dimensions?: string[];
  /** Attributes of the array. */
  attrs?: Record<string, unknown>;
}

/**
 * How to lay out the hierarchy.
 *
 * @example
 * ```ts
 * import type { StoreOptions } from "./zarr_fixtures.ts";
 * const options: StoreOptions = { format: 2, consolidated: true, prefix: "climate.zarr" };
 * ```
 */
export interface StoreOptions {
  /** Zarr format. */
  format: 2 | 3;
  /** v2 only: also write `.zmetadata`. */
  consolidated?: boolean;
  /** Directory of the dataset holding the hierarchy; default: the dataset root. */
  prefix?: string;
  /** Attributes of the root group. */
  attrs?: Record<string, unknown>;
}

/**
 * The files of a Zarr hierarchy holding `arrays`, keyed by dataset path
 * (`climate.zarr/temperature/0.0` with prefix `climate.zarr`).
 *
 * @example
 * ```ts
 * import { buildZarrStore } from "./zarr_fixtures.ts";
 * const files = await buildZarrStore(
 *   [{ path: "t", data: new Float64Array([1, 2, 3]), shape: [3], chunks: [2] }],
 *   { format: 2, prefix: "climate.zarr" },
 * );
 * Object.keys(files); // climate.zarr/.zgroup, climate.zarr/t/.zarray, climate.zarr/t/0, climate.zarr/t/1
 * ```
 *
 * @param arrays the arrays, with their values
 * @param options format and layout
 */
export async function buildZarrStore(
  arrays: ArraySpec[],
  options: StoreOptions,
): Promise<Record<string, Uint8Array>> {
  for (const spec of arrays) checkSpec(spec, options.format);
  const files = options.format === 2
    ? await writeV2(arrays, options)
    : await writeV3(arrays, options);
  const prefix = options.prefix ? `${options.prefix}/` : "";
  return Object.fromEntries(
    [...files].map(([key, bytes]) => [prefix + key, bytes]),
  );
}

/**
 * `length` values `offset`, `offset + step`, ... in a typed array, wrapping
 * as the type does.
 *
 * @example
 * ```ts
 * import { ramp } from "./zarr_fixtures.ts";
 * ramp(Float32Array, 4, 0.5, 1); // Float32Array [1, 1.5, 2, 2.5]
 * ```
 *
 * @param Type the typed array constructor
 * @param length number of values
 * @param step difference between neighbours
 * @param offset the first value
 */
export function ramp<T extends NumericArray>(
  Type: { new (length: number): T },
  length: number,
  step = 1,
  offset = 0,
): T {
  const values = new Type(length);
  for (let i = 0; i < length; i++) values[i] = offset + i * step;
  return values;
}

const DTYPES = new Map<unknown, { v2: string; v3: zarr.NumberDataType }>([
  [Int8Array, { v2: "|i1", v3: "int8" }],
  [Uint8Array, { v2: "|u1", v3: "uint8" }],
  [Int16Array, { v2: "<i2", v3: "int16" }],
  [Uint16Array, { v2: "<u2", v3: "uint16" }],
  [Int32Array, { v2: "<i4", v3: "int32" }],
  [Uint32Array, { v2: "<u4", v3: "uint32" }],
  [Float32Array, { v2: "<f4", v3: "float32" }],
  [Float64Array, { v2: "<f8", v3: "float64" }],
]);

function dtypeOf(data: NumericArray) {
  return DTYPES.get(data.constructor)!;
}

function checkSpec(spec: ArraySpec, format: 2 | 3): void {
  const { path, data, shape, chunks } = spec;
  if (data.length !== product(shape)) {
    throw new RangeError(`${path}: ${data.length} values for shape ${shape}`);
  }
  if (chunks.length !== shape.length) {
    throw new RangeError(`${path}: chunks ${chunks} for shape ${shape}`);
  }
  if (format === 3 && spec.compressor && !spec.shard) {
    throw new TypeError(
      `${path}: zarrita cannot compress; shard the array or use Zarr v2`,
    );
  }
}

async function writeV2(
  arrays: ArraySpec[],
  options: StoreOptions,
): Promise<Map<string, Uint8Array>> {
  const metadata = new Map<string, unknown>();
  const files = new Map<string, Uint8Array>();
  const group = (dir: string) =>
    metadata.set(`${dir}.zgroup`, { zarr_format: 2 });
  group("");
  if (options.attrs) metadata.set(".zattrs", options.attrs);
  for (const spec of arrays) {
    for (const dir of parentDirs(spec.path)) group(dir);
    const dir = `${spec.path}/`;
    const fillValue = spec.fillValue ?? 0;
    const order = spec.order ?? "C";
    metadata.set(`${dir}.zarray`, {
      zarr_format: 2,
      shape: spec.shape,
      chunks: spec.chunks,
      dtype: dtypeOf(spec.data).v2,
      compressor: spec.compressor ? { id: spec.compressor, level: 5 } : null,
      fill_value: Number.isNaN(fillValue) ? "NaN" : fillValue,
      order,
      filters: null,
      ...(spec.dimensionSeparator &&
        { dimension_separator: spec.dimensionSeparator }),
    });
    const attrs = {
      ...spec.attrs,
      ...(spec.dimensions && { _ARRAY_DIMENSIONS: spec.dimensions }),
    };
    if (Object.keys(attrs).length > 0) metadata.set(`${dir}.zattrs`, attrs);
    for (const coord of chunkGrid(spec.shape, spec.chunks)) {
      const values = chunkValues(spec, coord, order);
      if (values === undefined) continue;
      const key = coord.join(spec.dimensionSeparator ?? ".");
      files.set(dir + key, await compress(bytesOf(values), spec.compressor));
    }
  }
  for (const [key, doc] of metadata) files.set(key, json(doc));
  if (options.consolidated) {
    files.set(
      ".zmetadata",
      json({
        metadata: Object.fromEntries(metadata),
        zarr_consolidated_format: 1,
      }),
    );
  }
  return files;
}

async function writeV3(
  arrays: ArraySpec[],
  options: StoreOptions,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const store = {
    get: (key: zarr.AbsolutePath) => files.get(key.slice(1)),
    set: (key: zarr.AbsolutePath, value: Uint8Array) => {
      files.set(key.slice(1), value);
    },
  };
  const root = zarr.root(store);
  await zarr.create(root, { attributes: options.attrs ?? {} });
  for (const spec of arrays) {
    for (const dir of parentDirs(spec.path)) {
      await zarr.create(root.resolve(dir), {});
    }
    if (spec.shard) await writeShardedV3(files, spec, spec.shard);
    else await writeV3WithZarrita(root.resolve(spec.path), spec);
  }
  return files;
}

async function writeV3WithZarrita(
  location: zarr.Location<zarr.Mutable>,
  spec: ArraySpec,
): Promise<void> {
  const arr = await zarr.create(location, {
    shape: spec.shape,
    chunkShape: spec.chunks,
    dtype: dtypeOf(spec.data).v3,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    fillValue: spec.fillValue ?? 0,
    dimensionNames: spec.dimensions,
    attributes: spec.attrs ?? {},
  });
  for (const coord of chunkGrid(spec.shape, spec.chunks)) {
    if (chunkValues(spec, coord, "C") === undefined) continue;
    const start = coord.map((c, axis) => c * spec.chunks[axis]);
    const stop = start.map((s, axis) =>
      Math.min(s + spec.chunks[axis], spec.shape[axis])
    );
    const shape = stop.map((s, axis) => s - start[axis]);
    const data = subarray(spec, start, shape);
    await zarr.set(
      arr,
      start.map((s, axis) => zarr.slice(s, stop[axis])),
      { data, shape, stride: cStrides(shape) },
    );
  }
}

const EMPTY_CHUNK = 0xffff_ffff_ffff_ffffn;

async function writeShardedV3(
  files: Map<string, Uint8Array>,
  spec: ArraySpec,
  perShard: number[],
): Promise<void> {
  const shardShape = spec.chunks.map((c, axis) => c * perShard[axis]);
  const innerCodecs = [
    { name: "bytes", configuration: { endian: "little" } },
    ...(spec.compressor
      ? [{ name: spec.compressor, configuration: { level: 5 } }]
      : []),
  ];
  files.set(
    `${spec.path}/zarr.json`,
    json({
      zarr_format: 3,
      node_type: "array",
      shape: spec.shape,
      data_type: dtypeOf(spec.data).v3,
      chunk_grid: {
        name: "regular",
        configuration: { chunk_shape: shardShape },
      },
      chunk_key_encoding: {
        name: "default",
        configuration: { separator: "/" },
      },
      codecs: [{
        name: "sharding_indexed",
        configuration: {
          chunk_shape: spec.chunks,
          codecs: innerCodecs,
          index_codecs: [
            { name: "bytes", configuration: { endian: "little" } },
            { name: "crc32c" },
          ],
          index_location: "end",
        },
      }],
      fill_value: spec.fillValue ?? 0,
      attributes: spec.attrs ?? {},
      ...(spec.dimensions && { dimension_names: spec.dimensions }),
    }),
  );
  for (const shard of chunkGrid(spec.shape, shardShape)) {
    const index = new BigUint64Array(2 * product(perShard)).fill(EMPTY_CHUNK);
    const body: Uint8Array[] = [];
    let offset = 0;
    for (const [n, inner] of [...grid(perShard)].entries()) {
      const coord = inner.map((c, axis) => shard[axis] * perShard[axis] + c);
      const outside = coord.some((c, axis) =>
        c * spec.chunks[axis] >= spec.shape[axis]
      );
      const values = outside ? undefined : chunkValues(spec, coord, "C");
      if (values === undefined) continue;
      const encoded = await compress(bytesOf(values), spec.compressor);
      index[2 * n] = BigInt(offset);
      index[2 * n + 1] = BigInt(encoded.length);
      body.push(encoded);
      offset += encoded.length;
    }
    if (body.length === 0) continue;
    const indexBytes = bytesOf(index);
    const checksum = new Uint8Array(
      new Uint32Array([crc32c(indexBytes)]).buffer,
    );
    files.set(
      `${spec.path}/c/${shard.join("/")}`,
      concat([...body, indexBytes, checksum]),
    );
  }
}

/** A chunk's values, padded with the fill value; `undefined` when it holds nothing else. */
function chunkValues(
  spec: ArraySpec,
  coord: number[],
  order: "C" | "F",
): NumericArray | undefined {
  const { data, shape, chunks } = spec;
  const fillValue = spec.fillValue ?? 0;
  const Type = data.constructor as { new (length: number): NumericArray };
  const values = new Type(product(chunks)).fill(fillValue);
  const target = order === "C" ? cStrides(chunks) : fStrides(chunks);
  const source = cStrides(shape);
  let written = false;
  for (const at of grid(chunks)) {
    const global = at.map((i, axis) => coord[axis] * chunks[axis] + i);
    if (global.some((g, axis) => g >= shape[axis])) continue;
    const value = data[dot(global, source)];
    values[dot(at, target)] = value;
    if (!Object.is(value, fillValue)) written = true;
  }
  return written ? values : undefined;
}

/** The values of the box at `start` of size `shape`, in C order. */
function subarray(
  spec: ArraySpec,
  start: number[],
  shape: number[],
): NumericArray {
  const Type = spec.data.constructor as { new (length: number): NumericArray };
  const values = new Type(product(shape));
  const source = cStrides(spec.shape);
  let i = 0;
  for (const at of grid(shape)) {
    values[i++] = spec.data[dot(at.map((a, axis) => a + start[axis]), source)];
  }
  return values;
}

/** Every index of a box of `shape`, in C order. */
function* grid(shape: number[]): Generator<number[]> {
  const count = product(shape);
  const at = shape.map(() => 0);
  for (let n = 0; n < count; n++) {
    yield [...at];
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      if (++at[axis] < shape[axis]) break;
      at[axis] = 0;
    }
  }
}

function chunkGrid(shape: number[], chunks: number[]): Generator<number[]> {
  return grid(shape.map((s, axis) => Math.ceil(s / chunks[axis])));
}

function parentDirs(path: string): string[] {
  const parts = path.split("/").slice(0, -1);
  return parts.map((_, i) => `${parts.slice(0, i + 1).join("/")}/`);
}

function product(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + x * b[i], 0);
}

function cStrides(shape: number[]): number[] {
  return shape.map((_, axis) => product(shape.slice(axis + 1)));
}

function fStrides(shape: number[]): number[] {
  return shape.map((_, axis) => product(shape.slice(0, axis)));
}

function bytesOf(values: ArrayBufferView): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

function json(doc: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(doc));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

async function compress(
  bytes: Uint8Array,
  compressor: "gzip" | "zlib" | undefined,
): Promise<Uint8Array> {
  if (compressor === undefined) return bytes.slice();
  const format = compressor === "gzip" ? "gzip" : "deflate";
  const stream = new Blob([bytes.slice()]).stream()
    .pipeThrough(new CompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const CRC32C_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32C (Castagnoli), the checksum of the `crc32c` codec. */
function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc = CRC32C_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

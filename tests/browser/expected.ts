/**
 * What the browser test expects: the reads it asks the harness page for,
 * and what they give when done straight on the files the emulator serves
 * (zarrita over the files in memory for the array, no repo-fs involved).
 *
 * @module
 */

import * as zarr from "zarrita";
import { createHash } from "node:crypto";
import type { EmulatorFileSpec } from "../../emulator.ts";

/** The files of a dataset as `startEmulator` takes them. */
export type Files = Record<string, Uint8Array | string | EmulatorFileSpec>;

/** Bytes as the harness answers them. */
export interface Digest {
  length: number;
  sha256: string;
}

/** The reads of every run: the harness page's `ReadSpec`. */
export const READS = {
  tree: true,
  file: "README.md",
  range: { path: "climate.zarr/temperature/0.0.0", start: 100, end: 1100 },
  stream: "climate.zarr/precipitation/1.1.3",
  array: {
    root: "climate.zarr",
    path: "temperature",
    selection: [[2, 14], [10, 80], null] as ([number, number] | null)[],
  },
};

/** The served bytes of `path`. */
export function bytesOf(files: Files, path: string): Uint8Array {
  const file = files[path];
  if (file === undefined) throw new Error(`no file ${path} in the dataset`);
  const content = typeof file === "string" || file instanceof Uint8Array
    ? file
    : file.content;
  return typeof content === "string"
    ? new TextEncoder().encode(content)
    : content;
}

/** Length and SHA-256 of `bytes`. */
export function digest(bytes: Uint8Array): Digest {
  return {
    length: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
  };
}

/** What each read of {@linkcode READS} gives on `files`. */
export async function expectedReads(files: Files) {
  const { range, array } = READS;
  return {
    tree: Object.keys(files).sort(),
    file: digest(bytesOf(files, READS.file)),
    range: digest(bytesOf(files, range.path).subarray(range.start, range.end)),
    stream: digest(bytesOf(files, READS.stream)),
    array: await arrayDigest(files),
  };

  async function arrayDigest(files: Files) {
    const store = {
      get: (key: string) =>
        Promise.resolve(
          `${array.root}${key}` in files
            ? bytesOf(files, `${array.root}${key}`)
            : undefined,
        ),
    };
    const opened = await zarr.open.v2(zarr.root(store).resolve(array.path), {
      kind: "array",
      attrs: false,
    });
    const { data, shape } = await zarr.get(
      opened,
      array.selection.map((axis) =>
        axis === null ? null : zarr.slice(axis[0], axis[1])
      ),
    );
    const view = data as unknown as ArrayBufferView;
    return {
      shape,
      ...digest(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)),
    };
  }
}

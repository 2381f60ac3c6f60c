/**
 * `hdf5References`: the Zarr view of an HDF5/NetCDF4 file written as
 * kerchunk references (version 1), for fsspec's `ReferenceFileSystem` and
 * zarrita's `ReferenceStore`.
 *
 * @module
 */

import { repositoryBase } from "../../api/repo_api.ts";
import type { ByteSource } from "../source.ts";
import { type Hdf5Problem, readZarrView, zarray } from "./zarr_view.ts";

/**
 * Kerchunk references, version 1.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { hdf5References, type KerchunkReferences } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // t.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] and the
 * // variable-length strings `names`; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+v0cHHj5ZLiYubgYICB/1BwWwrCN4CK+77drOrv4RLEpHBWkCMbGVcwCSFrhAEu" +
 *     "JgZGBgY2HgYgxVhyGGoMmwCIz5qXmJtafJ4TKmjCQBZYJatrCHYS0AJGEQYGJkZGRmaoHJwWYWAU" +
 *     "VJBnYAHzFBjEORjE64EsVqDrmLk4gC5nZjzPCFHLAzN4A8OQA2suO99gYDhgD/SjAwNDggPIS7e5" +
 *     "IHJMUAzjMzKMglEwCkbBKBgFo2C4APS2EBMDov6HtYUkGRkZgE0wMIa0AzggbSEmSFvoNrRxoDCE" +
 *     "20Lzf/0WdHf29wF7RQC1zQMLi6RkVD5MPhHNrAP8o+lqFIyCUTAKRsEoGAWjYBSMglEwCkbBKBis" +
 *     "AADpYE4r2xoAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "t.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const references: KerchunkReferences = await hdf5References(fs, "t.h5");
 * const [url, start, length] = references.refs["t/0"] as [string, number, number];
 * strictEqual(url, `${emu.host}/api/access/datafile/${emu.fileId("t.h5")}`);
 * const chunk = await fs.catFile("t.h5", { start, end: start + length });
 * deepStrictEqual(new Float32Array(chunk.slice().buffer), new Float32Array([1.5, 2.5, 3.5]));
 * strictEqual(references.problems?.[0].path, "names"); // left out, and why
 * ```
 */
export interface KerchunkReferences {
  /** Always 1. */
  version: 1;
  /** Metadata documents inline as JSON text; chunks as `[url, offset, length]` or inline `base64:` text. */
  refs: Record<string, string | [string, number, number]>;
  /** The variables (and attributes) left out, each with why; absent when none is. */
  problems?: Hdf5Problem[];
}

/**
 * Options of {@linkcode hdf5References}.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { hdf5References, type Hdf5ReferencesOptions } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // t.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] and the
 * // variable-length strings `names`; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+v0cHHj5ZLiYubgYICB/1BwWwrCN4CK+77drOrv4RLEpHBWkCMbGVcwCSFrhAEu" +
 *     "JgZGBgY2HgYgxVhyGGoMmwCIz5qXmJtafJ4TKmjCQBZYJatrCHYS0AJGEQYGJkZGRmaoHJwWYWAU" +
 *     "VJBnYAHzFBjEORjE64EsVqDrmLk4gC5nZjzPCFHLAzN4A8OQA2suO99gYDhgD/SjAwNDggPIS7e5" +
 *     "IHJMUAzjMzKMglEwCkbBKBgFo2C4APS2EBMDov6HtYUkGRkZgE0wMIa0AzggbSEmSFvoNrRxoDCE" +
 *     "20Lzf/0WdHf29wF7RQC1zQMLi6RkVD5MPhHNrAP8o+lqFIyCUTAKRsEoGAWjYBSMglEwCkbBKBis" +
 *     "AADpYE4r2xoAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "t.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const options: Hdf5ReferencesOptions = { paths: true };
 * const { refs } = await hdf5References(fs, "t.h5", options);
 * const [where] = refs["t/0"] as [string, number, number];
 * strictEqual(where, "t.h5"); // the dataset path, not a URL
 * ```
 */
export interface Hdf5ReferencesOptions {
  /** Write the file's dataset path in each reference instead of its URL. */
  paths?: boolean;
  /**
   * The URL to write; by default the file's access URL
   * `{base}/access/datafile/{id}` of a `RepoFs` source.
   */
  url?: string;
  /** Aborts the metadata reads. */
  signal?: AbortSignal;
}

/**
 * The HDF5 or NetCDF4 file `path` of `source` as kerchunk references
 * (`{ version: 1, refs }`): the same Zarr group as {@linkcode hdf5Store}
 * gives, each chunk a range `[url, offset, length]` of the file, where
 * `url` is the file's stable access URL (`{base}/access/datafile/{id}`,
 * which redirects to the object store; never an expiring store URL) or,
 * with `paths`, its dataset path. A contiguous dataset is one chunk.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { hdf5References } from "@x/repo-fs/hdf5";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // t.h5 as h5py writes it: float32 `t` = [1.5, 2.5, 3.5] and the
 * // variable-length strings `names`; gzipped, in base64.
 * const gzipped = Uint8Array.from(atob(
 *   "H4sIAAAAAAACA+v0cHHj5ZLiYubgYICB/1BwWwrCN4CK+77drOrv4RLEpHBWkCMbGVcwCSFrhAEu" +
 *     "JgZGBgY2HgYgxVhyGGoMmwCIz5qXmJtafJ4TKmjCQBZYJatrCHYS0AJGEQYGJkZGRmaoHJwWYWAU" +
 *     "VJBnYAHzFBjEORjE64EsVqDrmLk4gC5nZjzPCFHLAzN4A8OQA2suO99gYDhgD/SjAwNDggPIS7e5" +
 *     "IHJMUAzjMzKMglEwCkbBKBgFo2C4APS2EBMDov6HtYUkGRkZgE0wMIa0AzggbSEmSFvoNrRxoDCE" +
 *     "20Lzf/0WdHf29wF7RQC1zQMLi6RkVD5MPhHNrAP8o+lqFIyCUTAKRsEoGAWjYBSMglEwCkbBKBis" +
 *     "AADpYE4r2xoAAA==",
 * ), (c) => c.charCodeAt(0));
 * const unzip = new DecompressionStream("gzip");
 * const h5 = await new Response(new Blob([gzipped]).stream().pipeThrough(unzip)).bytes();
 * await using emu = await startEmulator({ files: { "t.h5": h5 } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const { version, refs } = await hdf5References(fs, "t.h5");
 * strictEqual(version, 1);
 * deepStrictEqual(JSON.parse(refs["t/.zarray"] as string).shape, [3]);
 * const [url] = refs["t/0"] as [string, number, number];
 * strictEqual(url, `${emu.host}/api/access/datafile/${emu.fileId("t.h5")}`);
 * ```
 *
 * @param source a `RepoFs` (or, with `url` or `paths`, any source)
 * @param path the file's path in `source`
 * @param options `paths`, `url`, `signal`
 */
export async function hdf5References(
  source: ByteSource,
  path: string,
  options: Hdf5ReferencesOptions = {},
): Promise<KerchunkReferences> {
  const [view, url] = await Promise.all([
    readZarrView(source, path, options.signal),
    options.paths ? path : options.url ?? accessUrl(source, path),
  ]);
  const refs: KerchunkReferences["refs"] = {};
  const problems = [...view.problems];
  // Variable-length values are in the global heap: no range of the file holds them.
  const inHeap = [...view.arrays.values()].filter((a) => a.dataset.type.vlen);
  for (const array of inHeap) {
    problems.push({
      path: array.path,
      reason:
        "variable-length strings cannot be references (their values are in the global heap); hdf5Store reads them",
    });
  }
  const left = new Set(inHeap.map((a) => a.path));
  for (const [key, document] of view.metadata) {
    if (!left.has(key.slice(0, key.lastIndexOf("/")))) {
      refs[key] = JSON.stringify(document);
    }
  }
  const base = view.file.base;
  const arrays = [...view.arrays.values()].filter((a) => !left.has(a.path));
  await Promise.all(arrays.map(async (array) => {
    const { dataset, codecs } = array;
    const chunks = await array.refs();
    if ([...chunks.values()].some((ref) => "mask" in ref && ref.mask)) {
      problems.push({
        path: array.path,
        reason:
          "some chunks were stored with filters skipped, which a Zarr codec list cannot say; hdf5Store reads them",
      });
      delete refs[`${array.path}/.zarray`];
      delete refs[`${array.path}/.zattrs`];
      return;
    }
    const contiguous = dataset.layout.kind === "contiguous";
    if (contiguous) {
      refs[`${array.path}/.zarray`] = JSON.stringify(
        zarray(dataset, codecs, dataset.space!.shape),
      );
    }
    for (const [key, ref] of chunks) {
      if ("data" in ref) {
        refs[`${array.path}/${key}`] = `base64:${base64(ref.data)}`;
      } else if (!contiguous) {
        refs[`${array.path}/${key}`] = [url, base + ref.offset, ref.length];
      }
    }
    if (contiguous && chunks.size > 0) {
      const first = [...chunks.values()][0] as { offset: number };
      const zero = dataset.space!.shape.length === 0
        ? "0"
        : dataset.space!.shape.map(() => 0).join(".");
      const length = dataset.space!.shape.reduce((a, b) => a * b, 1) *
        dataset.type.size;
      refs[`${array.path}/${zero}`] = [url, base + first.offset, length];
    }
  }));
  return problems.length > 0
    ? { version: 1, refs, problems }
    : { version: 1, refs };
}

/** The access URL of `path` in a `RepoFs` (which has `host`). */
async function accessUrl(source: ByteSource, path: string): Promise<string> {
  const host = (source as { host?: unknown }).host;
  if (typeof host !== "string") {
    throw new TypeError(
      `The access URL of "${path}" needs a RepoFs source (one with a host): pass { url } or { paths: true }`,
    );
  }
  const { id } = await source.info(path);
  return `${repositoryBase(host)}/access/datafile/${id}`;
}

function base64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

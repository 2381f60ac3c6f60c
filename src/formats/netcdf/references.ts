/**
 * `netcdfReferences`: a NetCDF file of either kind as kerchunk references
 * (version 1), for fsspec's `ReferenceFileSystem` and zarrita's
 * `ReferenceStore`.
 *
 * @module
 */

import { accessUrl } from "../access_url.ts";
import {
  hdf5References,
  type Hdf5ReferencesOptions,
  type KerchunkReferences,
} from "../hdf5/references.ts";
import type { ByteSource } from "../source.ts";
import {
  chunkRange,
  metadataDocument,
  metadataKeys,
  zarray,
} from "./classic_view.ts";
import { openFile } from "./open_file.ts";

/**
 * Options of {@linkcode netcdfReferences}: those of `hdf5References`.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { netcdfReferences, type NetcdfReferencesOptions } from "@x/repo-fs/netcdf";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // t.nc as netCDF4-python writes it (NETCDF3_CLASSIC): float `t` = [1.5, 2.5, 3.5]
 * // along the record dimension `time`; in base64.
 * const nc = Uint8Array.from(atob(
 *   "Q0RGAQAAAAMAAAAKAAAAAQAAAAR0aW1lAAAAAAAAAAAAAAAAAAAACwAAAAEAAAABdAAAAAAAAAEA" +
 *     "AAAAAAAAAAAAAAAAAAAFAAAABAAAAFA/wAAAQCAAAEBgAAA=",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "t.nc": nc } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const options: NetcdfReferencesOptions = { paths: true };
 * const { refs } = await netcdfReferences(fs, "t.nc", options);
 * const [where] = refs["t/2"] as [string, number, number];
 * strictEqual(where, "t.nc"); // the dataset path, not a URL
 * ```
 */
export type NetcdfReferencesOptions = Hdf5ReferencesOptions;

/**
 * The NetCDF file `path` of `source`, classic or NetCDF4, as kerchunk
 * references (`{ version: 1, refs }`): the Zarr group `netcdfStore` gives,
 * each chunk a range `[url, offset, length]` of the file, where `url` is
 * the file's stable access URL (`{base}/access/datafile/{id}`) or, with
 * `paths`, its dataset path. Of a classic file, a fixed variable is one
 * chunk, and a record variable one chunk per record (its slab of that
 * record); a NetCDF4 file's are as `hdf5References` writes them.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { netcdfReferences } from "@x/repo-fs/netcdf";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * // t.nc as netCDF4-python writes it (NETCDF3_CLASSIC): float `t` = [1.5, 2.5, 3.5]
 * // along the record dimension `time`; in base64.
 * const nc = Uint8Array.from(atob(
 *   "Q0RGAQAAAAMAAAAKAAAAAQAAAAR0aW1lAAAAAAAAAAAAAAAAAAAACwAAAAEAAAABdAAAAAAAAAEA" +
 *     "AAAAAAAAAAAAAAAAAAAFAAAABAAAAFA/wAAAQCAAAEBgAAA=",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "t.nc": nc } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const { version, refs } = await netcdfReferences(fs, "t.nc");
 * strictEqual(version, 1);
 * deepStrictEqual(JSON.parse(refs["t/.zarray"] as string).chunks, [1]);
 * const [url, offset, length] = refs["t/1"] as [string, number, number];
 * strictEqual(url, `${emu.host}/api/access/datafile/${emu.fileId("t.nc")}`);
 * const bytes = await fs.catFile("t.nc", { start: offset, end: offset + length });
 * strictEqual(new DataView(bytes.buffer).getFloat32(0), 2.5); // big-endian
 * ```
 *
 * @param source a `RepoFs` (or, with `url` or `paths`, any source)
 * @param path the file's path in `source`
 * @param options `paths`, `url`, `signal`
 */
export async function netcdfReferences(
  source: ByteSource,
  path: string,
  options: NetcdfReferencesOptions = {},
): Promise<KerchunkReferences> {
  const file = await openFile(source, path, options.signal);
  const url = options.paths
    ? path
    : options.url ?? await accessUrl(source, path);
  if (file.kind === "hdf5") {
    // Its first bytes, read already, serve the HDF5 reader's first pages.
    return await hdf5References(file.source, path, { ...options, url });
  }
  const { header } = file;
  const refs: KerchunkReferences["refs"] = {};
  const variables = new Map(header.variables.map((v) => [v.name, v]));
  for (const key of metadataKeys(header)) {
    refs[key] = JSON.stringify(metadataDocument(header, variables, key));
  }
  for (const v of header.variables) {
    if (!v.record) {
      refs[`${v.name}/.zarray`] = JSON.stringify(zarray(v, v.shape));
      const key = v.shape.length === 0 ? "0" : v.shape.map(() => 0).join(".");
      refs[`${v.name}/${key}`] = [url, v.begin, v.slab];
      continue;
    }
    const rest = v.shape.slice(1).map(() => ".0").join("");
    for (let r = 0; r < header.records; r++) {
      const { offset, length } = chunkRange(header, v, `${r}${rest}`)!;
      refs[`${v.name}/${r}${rest}`] = [url, offset, length];
    }
  }
  return { version: 1, refs };
}

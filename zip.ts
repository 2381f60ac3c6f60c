/**
 * Zip archives of a dataset as folders: {@linkcode zipTree} mounts a zip
 * file of a `RepoFs`, a `RepoFsPool` or another zip as a read-only tree
 * with the verbs of `RepoFs`, reading its central directory and then only
 * the members asked for, by range.
 *
 * @example
 * A Zarr store zipped inside a dataset, read with zarrita through
 * `zarrStore`: the tree is a source like the dataset itself.
 *
 * ```ts
 * import * as zarr from "zarrita";
 * import { RepoFs } from "@x/repo-fs";
 * import { zarrStore } from "@x/repo-fs/zarr";
 * import { zipTree } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * // run.zarr/.zgroup, run.zarr/t/.zarray and run.zarr/t/0 (int8 [1, 2, 3]),
 * // as `zip -X -r data.zip run.zarr` writes them.
 * const base64 =
 *   "UEsDBAoAAgAAAEZTel0QBp51EQAAABEAAAAQAAAAcnVuLnphcnIvLnpncm91cHsiemFycl9m" +
 *   "b3JtYXQiOjJ9UEsDBAoAAgAAAEZTel0dgLxVAwAAAAMAAAAMAAAAcnVuLnphcnIvdC8wAQID" +
 *   "UEsDBBQAAgAIAEZTel1L4ZZ0XwAAAHQAAAASAAAAcnVuLnphcnIvdC8uemFycmF5TYs7CoAw" +
 *   "EAXv8uoUfrq0HkNEgiYorkZ2E8Hf3Y1gYTnMzInDMLfO82wCdKEgg1ktdF02Ct0Ql0k+6MP+" +
 *   "ClxjjqT8vLIV8Qy9RCIFN1KwLD+kdjMU05MpeO5tSlHhfgBQSwECHgMKAAIAAABGU3pdEAae" +
 *   "dREAAAARAAAAEAAAAAAAAAABAAAApIEAAAAAcnVuLnphcnIvLnpncm91cFBLAQIeAwoAAgAA" +
 *   "AEZTel0dgLxVAwAAAAMAAAAMAAAAAAAAAAAAAACkgT8AAABydW4uemFyci90LzBQSwECHgMU" +
 *   "AAIACABGU3pdS+GWdF8AAAB0AAAAEgAAAAAAAAABAAAApIFsAAAAcnVuLnphcnIvdC8uemFy" +
 *   "cmF5UEsFBgAAAAADAAMAuAAAAPsAAAAAAA==";
 * const archive = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "data.zip": archive } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 *
 * const store = zarrStore(zipTree(fs, "data.zip"), "run.zarr");
 * const t = await zarr.open(zarr.root(store).resolve("t"), { kind: "array" });
 * const { data } = await zarr.get(t);
 * deepStrictEqual(data, new Int8Array([1, 2, 3]));
 * ```
 *
 * @module
 */

export type { ByteSource } from "./src/formats/source.ts";
export type { Checksum, FileInfo, Logger } from "./src/base/types.ts";
export {
  type ZipFile,
  type ZipReadOptions,
  ZipTree,
  zipTree,
  type ZipTreeOptions,
} from "./src/formats/zip/zip_tree.ts";
export { ZipFormatError } from "./src/formats/zip/zip_format_error.ts";

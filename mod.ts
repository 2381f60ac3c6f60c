/**
 * repo-fs: one dataset of a research-data repository as a read-only,
 * path-addressed file tree. The repository lists a dataset's files flat, with
 * a `directoryLabel` each; repo-fs rebuilds the directories, resolves each
 * file's content URL once, and reads bytes and byte ranges from it.
 *
 * @example
 * With a real repository, `host` is its name, such as `repo.example.org`,
 * and `pid` the dataset's DOI; here the local emulator serves the dataset.
 *
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({
 *   files: {
 *     "climate.zarr/.zgroup": '{"zarr_format":2}',
 *     "data/big.bin": new Uint8Array(4096),
 *   },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(
 *   (await fs.ls("")).map((entry) => [entry.type, entry.name]),
 *   [["directory", "climate.zarr"], ["directory", "data"]],
 * );
 * const zgroup = await fs.catFile("climate.zarr/.zgroup");
 * strictEqual(new TextDecoder().decode(zgroup), '{"zarr_format":2}');
 * const tail = await fs.catFile("data/big.bin", { start: -1024 });
 * strictEqual(tail.byteLength, 1024);
 * ```
 *
 * @module
 */

export { listCollection, RepoFs, type RestoreOptions } from "./src/repo_fs.ts";
export type { ReadOptions, RepoFile } from "./src/repo_file.ts";
export type {
  FileMetadata,
  MetadataSeed,
  PinnedReads,
} from "./src/content/file_metadata.ts";
export {
  type FindOptions,
  type RangeRequest,
  ReadOnlyTree,
  type WalkEntry,
} from "./src/tree/read_only_tree.ts";
export { type PoolOptions, RepoFsPool } from "./src/pool/pool.ts";
export {
  DeaccessionedError,
  IsADirectoryError,
  NotFoundError,
  RepoChangedError,
  RepoConnectionError,
  RepoHttpError,
  RepoProtocolError,
  WorkerCrashedError,
} from "./src/base/errors.ts";
export {
  FormatError,
  type FormatErrorOptions,
} from "./src/base/format_error.ts";
export type {
  Checksum,
  ContentKey,
  FileInfo,
  Logger,
  RepoFsOptions,
  ResolvedUrl,
  RetryOptions,
  SharedUrls,
  TabularView,
  UrlCoordinator,
} from "./src/base/types.ts";
export type { ChecksumKind } from "./src/base/checksum.ts";
export type { SerializedOptions, SerializedRepoFs } from "./src/serialize.ts";
export type { RejectedEntry } from "./src/tree/routing_table.ts";
export type {
  Downloaded,
  DownloadToFileOptions,
  Verification,
} from "./src/download/file_download.ts";

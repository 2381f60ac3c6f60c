/**
 * repo-fs: one dataset of a research-data repository as a read-only,
 * path-addressed file tree. The repository lists a dataset's files flat, with
 * a `directoryLabel` each; repo-fs rebuilds the directories, resolves each
 * file's content URL once, and reads bytes and byte ranges from it.
 *
 * @example
 * ```ts ignore
 * import { RepoFs } from "@x/repo-fs";
 *
 * const fs = new RepoFs({ host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" });
 * for (const entry of await fs.ls("")) console.log(entry.type, entry.name);
 * const zgroup = await fs.catFile("climate.zarr/.zgroup");
 * const tail = await fs.catFile("data/big.bin", { start: -1024 });
 * ```
 *
 * @module
 */

export {
  type FindOptions,
  listCollection,
  type ReadOptions,
  type RepoFile,
  RepoFs,
  type RestoreOptions,
} from "./src/repo_fs.ts";
export {
  type PoolOptions,
  type RangeRequest,
  RepoFsPool,
} from "./src/pool/pool.ts";
export {
  DeaccessionedError,
  IsADirectoryError,
  NotFoundError,
  RepoConnectionError,
  RepoHttpError,
  RepoProtocolError,
  WorkerCrashedError,
} from "./src/base/errors.ts";
export type {
  Checksum,
  FileInfo,
  Logger,
  RepoFsOptions,
  RetryOptions,
  TabularView,
} from "./src/base/types.ts";
export type { ChecksumKind } from "./src/base/checksum.ts";
export type { SerializedOptions, SerializedRepoFs } from "./src/serialize.ts";
export type { RejectedEntry } from "./src/tree/routing_table.ts";
export type {
  Downloaded,
  DownloadToFileOptions,
  Verification,
} from "./src/pool/file_download.ts";

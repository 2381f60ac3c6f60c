/**
 * The fleet: processes that read one dataset together. A Redis server
 * keeps one HEAD budget and one URL cache for all of them
 * ({@linkcode redisCoordinator}, for `RepoFs`'s `coordinator` option), and
 * the shard helpers give each process its share of the files. None of this
 * is on the import path of the main entry.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { parseShard, redisCoordinator, shardOf } from "@x/repo-fs/fleet";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.bin": new Uint8Array(30), "b.bin": new Uint8Array(20), "c.bin": new Uint8Array(10) },
 * });
 * const fs = new RepoFs({
 *   host: emu.host,
 *   pid: emu.pid,
 *   coordinator: redisCoordinator("redis://127.0.0.1:6379"),
 * });
 * const files = await Promise.all((await fs.find("")).map((path) => fs.info(path)));
 * // Two shards, balanced by bytes: 30 against 20 + 10.
 * deepStrictEqual(shardOf(files, parseShard("0/2")).map((f) => f.name), ["a.bin"]);
 * deepStrictEqual(shardOf(files, parseShard("1/2")).map((f) => f.name), ["b.bin", "c.bin"]);
 * ```
 *
 * @module
 */

export { redisCoordinator } from "./src/fleet/redis_coordinator.ts";
export { CoordinatorError } from "./src/fleet/coordinator_error.ts";
export {
  parseShard,
  type Shard,
  type ShardableFile,
  shardFromEnvironment,
  shardOf,
} from "./src/fleet/shards.ts";
export type { SharedUrls, UrlCoordinator } from "./src/base/types.ts";

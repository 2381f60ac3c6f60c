/**
 * `redisCoordinator(url)`: a Redis server as the `coordinator` of every
 * `RepoFs` of a fleet.
 *
 * @module
 */

import type { UrlCoordinator } from "../base/types.ts";
import { checkCoordinatorUrl } from "./coordinator_connection.ts";
import { Coordinator } from "./coordinator.ts";

/**
 * A Redis server (`redis://host:port`, or `rediss://`, with a user,
 * password or database) through which every process given it shares one
 * HEAD budget and one URL cache per repository. Pass it as `RepoFs`'s
 * `coordinator` option. Places are leases: a killed process's come back
 * within seconds. The API token is never stored there. Nothing connects
 * before the first read that needs a URL; the client, `@redis/client`, is
 * loaded then (npm users of this entry install it themselves). Not for
 * browsers.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { CoordinatorError, redisCoordinator } from "@x/repo-fs/fleet";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { rejects, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * // Nothing listens on port 9: the read fails rather than send a HEAD of its own.
 * const fs = new RepoFs({
 *   host: emu.host,
 *   pid: emu.pid,
 *   coordinator: redisCoordinator("redis://127.0.0.1:9"),
 * });
 * await rejects(fs.catFile("a.txt"), CoordinatorError);
 * strictEqual(emu.counters.heads, 0);
 * ```
 *
 * @param url the Redis server
 * @returns the coordinator, to pass as `RepoFs`'s `coordinator` option
 * @throws {TypeError} when `url` is not a `redis://` or `rediss://` URL
 */
export function redisCoordinator(url: string): UrlCoordinator {
  const checked = checkCoordinatorUrl(url);
  return {
    share: (repository, places, logger) =>
      new Coordinator(checked, repository, places, logger),
  };
}

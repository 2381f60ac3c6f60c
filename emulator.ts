/**
 * A local emulator of the research-data repository that repo-fs reads: a
 * repository origin (collection contents, dataset and version listings, the
 * file-access endpoint) and an object-store origin serving pre-signed,
 * expiring URLs with byte ranges. It checks the API token, counts requests,
 * and acts out the faults a real deployment shows: latency, rate limiting,
 * 5xx, truncated, dropped, stalled and trickling bodies, expired URLs,
 * ignored ranges and wrong `Content-Range`s, bodies of unsaid length,
 * gzip-encoded answers, objects replaced while they are read, answers
 * without a redirect or with an odd one, captive-portal pages, slow HEADs,
 * error messages quoting the token, and malformed or trickling JSON. With
 * `storeOrigin` it redirects to a store of your own (nginx over the folder
 * `writeStore` fills, say).
 *
 * @example
 * Use it in your own tests:
 *
 * ```ts
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}', "README.md": "# hi" },
 *   token: "secret",
 * });
 * const response = await fetch(
 *   `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
 *   { headers: { "X-Repo-key": "secret" } },
 * );
 * const { data } = await response.json();
 * strictEqual(data.latestVersion.files.length, 2);
 * ```
 *
 * @module
 */

export { startEmulator } from "./src/emulator/server.ts";
export type { Emulator } from "./src/emulator/server.ts";
export type {
  EmulatorEntry,
  EmulatorFileSpec,
  EmulatorOptions,
} from "./src/emulator/options.ts";
export type {
  EmulatorFaults,
  FaultRoute,
  FaultRule,
} from "./src/emulator/faults.ts";
export type { EmulatorCounters } from "./src/emulator/counters.ts";
export type { RequestInfo, Respond } from "./src/emulator/respond_hook.ts";

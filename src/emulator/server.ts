/**
 * Starts the emulator: a repository origin and an object-store origin, each
 * a `Deno.serve` on its own port.
 *
 * @module
 */

import type { EmulatorContext } from "./context.ts";
import {
  createCounters,
  type EmulatorCounters,
  resetCounters,
} from "./counters.ts";
import { normalizePid } from "../repo/pid.ts";
import { repositoryNames } from "../repo/repo_api.ts";
import { buildDataset, findVersion } from "./dataset.ts";
import { createFaults, type EmulatorFaults } from "./faults.ts";
import type { EmulatorOptions } from "./options.ts";
import { repositoryHandler } from "./repository.ts";
import { UrlSigner } from "./signing.ts";
import { collectSources } from "./sources.ts";
import { storeHandler } from "./store.ts";
import { withCors } from "./cors.ts";
import { goneSignal, sleep } from "./waits.ts";

/**
 * A running emulator. Close it with `await using` or {@linkcode Emulator.close}.
 *
 * @example
 * ```ts
 * import { startEmulator } from "./server.ts";
 * import { ok, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const head = await fetch(`${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`, {
 *   method: "HEAD",
 *   redirect: "manual",
 * });
 * strictEqual(head.status, 303);
 * ok(head.headers.get("location")?.startsWith(emu.storeOrigin));
 * ```
 */
export interface Emulator extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`; the repository API is under `${host}/api`. */
  readonly host: string;
  /** The dataset's persistent id. */
  readonly pid: string;
  /** The alias of the collection holding the dataset. */
  readonly alias: string;
  /** `http://127.0.0.1:<storePort>`, where signed URLs point. */
  readonly storeOrigin: string;
  /** Live request and byte counts. */
  readonly counters: EmulatorCounters;
  /** Live fault knobs; change their fields at any time. */
  readonly faults: EmulatorFaults;
  /**
   * Zeroes the counters.
   *
   * @example
   * ```ts
   * import { startEmulator } from "./server.ts";
   * import { strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator();
   * await fetch(`${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`)
   *   .then((response) => response.body?.cancel());
   * strictEqual(emu.counters.listingCalls, 1);
   * emu.resetCounters();
   * strictEqual(emu.counters.listingCalls, 0);
   * ```
   */
  resetCounters(): void;
  /**
   * Makes every URL signed before this call answer 403 `Request has expired`.
   *
   * @example
   * ```ts
   * import { startEmulator } from "./server.ts";
   * import { strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
   * const head = await fetch(`${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`, {
   *   method: "HEAD",
   *   redirect: "manual",
   * });
   * const signedUrl = head.headers.get("location")!;
   * emu.expireUrls();
   * const answer = await fetch(signedUrl);
   * strictEqual(answer.status, 403);
   * strictEqual(
   *   await answer.text(),
   *   '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
   * );
   * ```
   */
  expireUrls(): void;
  /**
   * The id of the file at `dir/name` (`name` at the root) in the main
   * version, or in `version` as the version endpoint resolves it. Throws
   * when there is no such file.
   *
   * @example
   * ```ts
   * import { startEmulator } from "./server.ts";
   * import { strictEqual, throws } from "node:assert/strict";
   * await using emu = await startEmulator({
   *   files: { "a/b.txt": "new" },
   *   versions: { "1.0": { "a/b.txt": "old" } },
   * });
   * strictEqual(emu.fileId("a/b.txt"), 1001);
   * strictEqual(emu.fileId("a/b.txt", "1.0"), 1002);
   * throws(() => emu.fileId("a/c.txt"), /no file "a\/c.txt"/);
   * ```
   */
  fileId(path: string, version?: string): number;
  /**
   * Shuts both servers down once in-flight requests are answered; every
   * wait (latency, head delay, stalled and trickled bodies) ends at once,
   * a stalled or trickled body by dropping its connection. Calling it again
   * returns the same promise.
   *
   * @example
   * ```ts
   * import { startEmulator } from "./server.ts";
   * import { rejects, strictEqual } from "node:assert/strict";
   * const emu = await startEmulator();
   * const closing = emu.close();
   * strictEqual(emu.close(), closing);
   * await closing;
   * await rejects(fetch(emu.host)); // nothing listens there any more
   * ```
   */
  close(): Promise<void>;
}

/**
 * Starts an emulated repository serving one dataset.
 *
 * @example
 * ```ts
 * import { startEmulator } from "./server.ts";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}' },
 *   faults: { failures: [{ target: "head", status: 429, count: 1 }] },
 * });
 * const response = await fetch(
 *   `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
 * );
 * const { data } = await response.json();
 * strictEqual(data.latestVersion.files[0].directoryLabel, "climate.zarr");
 * const access = `${emu.host}/api/access/datafile/${emu.fileId("climate.zarr/.zgroup")}`;
 * const head = () => fetch(access, { method: "HEAD", redirect: "manual" });
 * strictEqual((await head()).status, 429); // the failure rule, once
 * strictEqual((await head()).status, 303);
 * ```
 */
export async function startEmulator(
  options: EmulatorOptions = {},
): Promise<Emulator> {
  const names = repositoryNames(options);
  const maxPageSize = options.maxPageSize ?? 1000;
  if (!Number.isSafeInteger(maxPageSize) || maxPageSize < 1) {
    throw new TypeError(
      `maxPageSize must be an integer >= 1, got ${maxPageSize}`,
    );
  }
  const dataset = buildDataset(
    await collectSources(options),
    normalizePid(options.pid ?? "doi:10.5072/FK2/EMULATED"),
    options.alias ?? "root",
    options,
  );
  const hostname = options.hostname ?? "127.0.0.1";
  const lifecycle = new AbortController();
  const context: EmulatorContext = {
    dataset,
    faults: createFaults(options.faults),
    counters: createCounters(),
    signer: new UrlSigner(options.urlLifetimeSeconds ?? 3600),
    token: options.token,
    ...names,
    pagedFiles: options.pagedFiles ?? true,
    maxPageSize,
    storeOrigin: "",
    closed: lifecycle.signal,
    pause: (request, ms) => pause(request, ms, lifecycle.signal),
  };
  const store = Deno.serve(
    { hostname, port: options.storePort ?? 0, onListen() {} },
    withCors(storeHandler(context), context.tokenHeader),
  );
  context.storeOrigin = originOf(store.addr);
  let repository: Deno.HttpServer<Deno.NetAddr>;
  try {
    repository = Deno.serve(
      { hostname, port: options.port ?? 0, onListen() {} },
      withCors(repositoryHandler(context), context.tokenHeader),
    );
  } catch (error) {
    await store.shutdown();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.abort();
      await Promise.all([repository.shutdown(), store.shutdown()]);
    })();
    return closing;
  };
  return {
    host: originOf(repository.addr),
    pid: dataset.pid,
    alias: dataset.alias,
    storeOrigin: context.storeOrigin,
    counters: context.counters,
    faults: context.faults,
    resetCounters: () => resetCounters(context.counters),
    expireUrls: () => context.signer.expireAll(),
    fileId(path, version) {
      const id = findVersion(dataset, version)?.idsByPath.get(path);
      if (id === undefined) {
        throw new Error(
          `The emulator has no file "${path}" in version ${
            version ?? ":latest"
          }`,
        );
      }
      return id;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

function originOf(addr: Deno.NetAddr): string {
  const host = addr.hostname.includes(":")
    ? `[${addr.hostname}]`
    : addr.hostname;
  return `http://${host}:${addr.port}`;
}

/** Reads `request.signal` only when there is a wait, see {@linkcode goneSignal}. */
async function pause(
  request: Request,
  ms: number,
  closed: AbortSignal,
): Promise<boolean> {
  if (ms <= 0) return false;
  await sleep(ms, goneSignal(request, closed));
  return request.signal.aborted;
}

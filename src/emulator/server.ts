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
import { normalizePid } from "../api/pid.ts";
import { repositoryNames } from "../api/repo_api.ts";
import { buildDataset, findVersion } from "./dataset.ts";
import { createFaults, type EmulatorFaults } from "./faults.ts";
import type { EmulatorOptions } from "./options.ts";
import { repositoryHandler } from "./repository.ts";
import { UrlSigner } from "./signing.ts";
import { collectSources } from "./sources.ts";
import { storeHandler } from "./store.ts";
import { withCors } from "./cors.ts";
import { RequestLedger, withRespondHook } from "./respond_hook.ts";
import { goneSignal, sleep } from "./waits.ts";

/**
 * A running emulator. Close it with `await using` or {@linkcode Emulator.close}.
 *
 * @example
 * ```ts
 * import { startEmulator } from "@x/repo-fs/emulator";
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
   * import { startEmulator } from "@x/repo-fs/emulator";
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
   * import { startEmulator } from "@x/repo-fs/emulator";
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
   * import { startEmulator } from "@x/repo-fs/emulator";
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
   * Serves other bytes for the file at `path` (of the main version, or of
   * `version`) from now on, under the same id and store URL, with a new
   * `ETag`, as when an object is replaced in the store; the listing still
   * describes the old bytes.
   *
   * @example
   * ```ts
   * import { startEmulator } from "@x/repo-fs/emulator";
   * import { notStrictEqual, strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
   * const head = await fetch(`${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`, {
   *   method: "HEAD",
   *   redirect: "manual",
   * });
   * const url = head.headers.get("location")!;
   * const before = await fetch(url);
   * await before.body?.cancel();
   * emu.replaceContent("a.txt", "HELLO");
   * const after = await fetch(url);
   * strictEqual(await after.text(), "HELLO");
   * notStrictEqual(after.headers.get("etag"), before.headers.get("etag"));
   * ```
   */
  replaceContent(
    path: string,
    content: Uint8Array | string,
    version?: string,
  ): void;
  /**
   * Writes every object of the store, in every version (originals of
   * tabular files included), to `dir` at its store path, for a static file
   * server to serve as the `storeOrigin` option's store; resolves to the
   * number of objects written.
   *
   * @example
   * ```ts
   * import { startEmulator } from "@x/repo-fs/emulator";
   * import { strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
   * const head = await fetch(`${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`, {
   *   method: "HEAD",
   *   redirect: "manual",
   * });
   * const dir = await Deno.makeTempDir();
   * strictEqual(await emu.writeStore(dir), 1);
   * const { pathname } = new URL(head.headers.get("location")!);
   * strictEqual(await Deno.readTextFile(dir + pathname), "hello");
   * await Deno.remove(dir, { recursive: true });
   * ```
   */
  writeStore(dir: string): Promise<number>;
  /**
   * Shuts both servers down once in-flight requests are answered; every
   * wait (latency, head delay, stalled and trickled bodies) ends at once,
   * a stalled or trickled body by dropping its connection. Calling it again
   * returns the same promise.
   *
   * @example
   * ```ts
   * import { startEmulator } from "@x/repo-fs/emulator";
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
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/.zgroup": '{"zarr_format":2}' },
 *   faults: { rules: [{ route: "head", status: 429 }] },
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
  const ledger = new RequestLedger((pathname) =>
    dataset.filesByStoragePath.get(pathname)?.id
  );
  const paths = new Map(
    [...dataset.main.idsByPath].map(([path, id]) => [id, path]),
  );
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
    ledger,
    pathOf: (id) => paths.get(id),
    closed: lifecycle.signal,
    pause: (request, ms) => pause(request, ms, lifecycle.signal),
  };
  const store = options.storeOrigin === undefined
    ? Deno.serve(
      { hostname, port: options.storePort ?? 0, onListen() {} },
      withCors(
        withRespondHook(
          "store",
          storeHandler(context),
          context.faults,
          ledger,
          lifecycle.signal,
        ),
        context.tokenHeader,
      ),
    )
    : undefined;
  context.storeOrigin = store === undefined
    ? externalOrigin(options.storeOrigin!)
    : originOf(store.addr);
  let repository: Deno.HttpServer<Deno.NetAddr>;
  try {
    repository = Deno.serve(
      { hostname, port: options.port ?? 0, onListen() {} },
      withCors(
        withRespondHook(
          "repository",
          repositoryHandler(context),
          context.faults,
          ledger,
          lifecycle.signal,
        ),
        context.tokenHeader,
      ),
    );
  } catch (error) {
    await store?.shutdown();
    throw error;
  }
  const fileId = (path: string, version?: string) => {
    const id = findVersion(dataset, version)?.idsByPath.get(path);
    if (id === undefined) {
      throw new Error(
        `The emulator has no file "${path}" in version ${version ?? ":latest"}`,
      );
    }
    return id;
  };
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      lifecycle.abort();
      await Promise.all([repository.shutdown(), store?.shutdown()]);
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
    fileId,
    replaceContent(path, content, version) {
      dataset.filesById.get(fileId(path, version))!.bytes =
        typeof content === "string"
          ? new TextEncoder().encode(content)
          : new Uint8Array(content);
    },
    async writeStore(dir) {
      for (const [path, file] of dataset.filesByStoragePath) {
        const target = `${dir}${path}`;
        await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), {
          recursive: true,
        });
        await Deno.writeFile(target, file.bytes);
      }
      return dataset.filesByStoragePath.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The `storeOrigin` option checked: an http(s) origin, nothing after it. */
function externalOrigin(storeOrigin: string): string {
  const origin = URL.canParse(storeOrigin)
    ? new URL(storeOrigin).origin
    : "null";
  if (!/^https?:/.test(origin) || storeOrigin.replace(/\/$/, "") !== origin) {
    throw new TypeError(
      `storeOrigin must be an http(s) origin such as http://127.0.0.1:8080, got ${
        JSON.stringify(storeOrigin)
      }`,
    );
  }
  return origin;
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

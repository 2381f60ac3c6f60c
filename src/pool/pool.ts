/**
 * `RepoFsPool`: Web Workers that read and decode in parallel, each holding a
 * `RepoFs` rebuilt from the main thread's serialised form. Workers ask the
 * main thread for content URLs, so the whole pool keeps one HEAD budget of
 * `headConcurrency` and resolves each file id once.
 *
 * @module
 */

import type {
  ArrayPartRequest,
  ArrayPartResult,
} from "../formats/array_parts.ts";
import type { PartKind, WorkerDecoders } from "../formats/source.ts";
import { WorkerCrashedError } from "../base/errors.ts";
import { permissionError } from "./permission.ts";
import { abortable, whenAborted } from "../base/abort_callbacks.ts";
import type {
  Downloaded,
  DownloadToFileOptions,
} from "../download/file_download.ts";
import {
  Batch,
  flattenError,
  type FromWorker,
  reviveError,
  type ToWorker,
  type UrlAnswer,
  type UrlAsk,
} from "./pool_protocol.ts";
import { type PoolWorker, startWorker } from "./worker_port.ts";
import { INTERNALS, type RepoFs } from "../repo_fs.ts";
import { type CachedUrl, cachedUrl, cacheKey } from "../urls/download_urls.ts";
import type { RepoFile } from "../repo_file.ts";
import { ReadOnlyTree } from "../tree/read_only_tree.ts";
import type { RoutingTable } from "../tree/routing_table.ts";
import { poolFile } from "./pool_file.ts";
import { SameObject } from "../content/same_object.ts";
import type { FileMetadata, MetadataSeed } from "../content/file_metadata.ts";
import type { SerializedRepoFs } from "../serialize.ts";

/**
 * Options of `new RepoFsPool(fs, options)`.
 *
 * @example
 * ```ts
 * import { type PoolOptions, RepoFsPool } from "@x/repo-fs";
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const options: PoolOptions = {
 *   workers: 2,
 *   workerUrl: import.meta.resolve("@x/repo-fs/worker"), // the default
 * };
 * await using pool = new RepoFsPool(new RepoFs({ host: emu.host, pid: emu.pid }), options);
 * strictEqual(pool.size, 2);
 * strictEqual(new TextDecoder().decode(await pool.catFile("a.txt")), "hello");
 * ```
 */
export interface PoolOptions {
  /**
   * Number of workers; default `navigator.hardwareConcurrency`, or 4
   * where there is no `navigator` (Node 20).
   */
  workers?: number;
  /**
   * Where the worker module (export `./worker`) is served: give it for
   * browsers and bundles. A string that is not a URL is, in Node, a file
   * path. Default: `range_worker.ts` beside this module when it runs from
   * source, `range_worker.js` when it was compiled to JavaScript (npm).
   */
  workerUrl?: string | URL;
}

interface Slot {
  worker: PoolWorker;
  jobs: Set<number>;
  /** The worker's URL asks being answered, by ask number. */
  asks: Map<number, AbortController>;
  /** Answers to its URL asks, sent together per microtask run. */
  answers: Batch<number, UrlAnswer>;
  /**
   * URLs other workers asked for, sent together per microtask run, so that
   * a part or file read by this worker next time needs no ask.
   */
  known: Batch<string, CachedUrl>;
  /** The metadata seeds whose bytes it was sent (see {@linkcode RepoFsPool.#forSlot}). */
  seeds: WeakSet<MetadataSeed>;
  /** The worker said its module loaded. */
  ready: boolean;
  /** The worker was terminated; nothing more is posted to it. */
  dead: boolean;
}

interface Job {
  slot: Slot;
  /** What the worker was asked; asked again of a worker's replacement when it failed to start. */
  message: ToWorker;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onProgress?: (bytes: number) => void;
  /** A download's temporary file, removed here when its worker cannot. */
  temporary?: string;
  /** Set once the caller aborted: what the job rejects with, and the worker's time to answer. */
  aborted?: { reason: unknown; grace: Timer };
}

type Request =
  | Omit<Extract<ToWorker, { type: "cat" }>, "job">
  | Omit<Extract<ToWorker, { type: "array" }>, "job">
  | Omit<Extract<ToWorker, { type: "parquet" }>, "job">
  | Omit<Extract<ToWorker, { type: "raster" }>, "job">
  | Omit<Extract<ToWorker, { type: "download" }>, "job">;

type Timer = ReturnType<typeof setTimeout>;

/**
 * The worker module, `workers/range_worker.ts` when this module runs from
 * its TypeScript source (Deno, JSR), `.js` when it was compiled to
 * JavaScript (`deno pack`, JSR's npm packages).
 */
const WORKER_URL = new URL(
  new URL(import.meta.url).pathname.endsWith(".ts")
    ? "../../workers/range_worker.ts"
    : "../../workers/range_worker.js",
  import.meta.url,
);
/** Workers where the runtime does not say how many cores there are (Node 20). */
const FALLBACK_WORKERS = 4;
/** Failed worker starts in a row after which the pool gives up. */
const START_ATTEMPTS = 3;
/** Wait before the first new start after a failed one; it doubles each time. */
const FIRST_RESTART_DELAY_MS = 100;
/** How long a worker has to answer a cancel before it is ended. */
const CANCEL_GRACE_MS = 1000;

/** The key of a pool's {@linkcode TestSeams}. */
export const TEST_SEAMS = Symbol("RepoFsPool test seams");

/** What tests do to a pool and ask of it that users cannot. */
interface TestSeams {
  /** Worker `index` throws an uncaught error, as a crash would. */
  crash(index: number, reason: string): void;
  /** What crossed between the threads for content URLs so far. */
  urlMessages(): UrlMessageCounts;
  /** Metadata bytes of seeds sent to the workers so far. */
  seedBytes(): number;
}

/** What crossed between a pool's threads for content URLs. */
export interface UrlMessageCounts {
  /** Messages of URL asks the workers sent. */
  askMessages: number;
  /** URL asks in them. */
  asks: number;
  /** Messages of answers the main thread sent. */
  answerMessages: number;
}

/**
 * Test seam: worker `index` of `pool` throws an uncaught error, as a crash
 * would; its requests reject with a {@linkcode WorkerCrashedError}.
 */
export function crashWorker(
  pool: RepoFsPool,
  index: number,
  reason = "crash requested by a test",
): void {
  pool[TEST_SEAMS].crash(index, reason);
}

/**
 * Test seam: how many URL asks the workers of `pool` sent, in how many
 * messages, and how many messages of answers came back.
 */
export function urlMessageCounts(pool: RepoFsPool): UrlMessageCounts {
  return pool[TEST_SEAMS].urlMessages();
}

/**
 * Test seam: the metadata bytes of seeds that `pool` sent its workers, each
 * seed's to each worker once.
 */
export function seedBytesSent(pool: RepoFsPool): number {
  return pool[TEST_SEAMS].seedBytes();
}

/**
 * A pool of workers reading one dataset. The tree verbs of
 * {@linkcode ReadOnlyTree} answer from its instance's table on the calling
 * thread; `catFile`, and so `cat`, `catRanges` and `open`, read in the
 * workers.
 *
 * A worker whose module fails to load is started again after a backoff;
 * after three failed starts in a row the pool gives up, and every pending
 * and later call rejects with a {@linkcode WorkerCrashedError} saying why.
 * Aborting a call cancels its job in the worker; a worker that does not
 * answer within a second is ended and replaced, and the pool removes the
 * temporary file of any download it left.
 *
 * @example
 * ```ts
 * import { RepoFsPool } from "@x/repo-fs";
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 *
 * await using emu = await startEmulator({
 *   files: { "climate.zarr/temp/0.0": "chunk 0", "climate.zarr/temp/0.1": "chunk 1" },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * await using pool = new RepoFsPool(fs, { workers: 2 });
 * deepStrictEqual(await pool.find("climate.zarr"), [
 *   "climate.zarr/temp/0.0",
 *   "climate.zarr/temp/0.1",
 * ]);
 * const chunks = await pool.catRanges([
 *   { path: "climate.zarr/temp/0.0" },
 *   { path: "climate.zarr/temp/0.1", start: -1 },
 * ]);
 * deepStrictEqual(chunks.map((c) => new TextDecoder().decode(c)), ["chunk 0", "1"]);
 * ```
 */
export class RepoFsPool extends ReadOnlyTree implements AsyncDisposable {
  /** Number of workers. */
  readonly size: number;
  /**
   * The parsed metadata of files, its instance's: parsed once on the
   * calling thread, whose workers are given the bytes it was parsed from.
   */
  readonly metadata: FileMetadata;
  /**
   * The workers as `getArray`, `readParquet` and `readRaster` use them:
   * each part of a read is read and decoded in one worker.
   *
   * @ignore
   */
  readonly decoders: WorkerDecoders;
  /**
   * What tests do to it; see {@linkcode crashWorker}.
   * @ignore
   */
  readonly [TEST_SEAMS]: TestSeams = {
    crash: (index, reason) =>
      this.#post(this.#slots[index], { type: "crash", reason }),
    urlMessages: () => ({ ...this.#urlMessages }),
    seedBytes: () => this.#seedBytes,
  };
  readonly #fs: RepoFs;
  readonly #workerUrl: string | URL;
  readonly #slots: Slot[] = [];
  readonly #jobs = new Map<number, Job>();
  /** URL lookups asked for by workers, until answered. */
  readonly #resolving = new Set<Promise<void>>();
  /** Temporary files of abandoned downloads being removed. */
  readonly #cleanups = new Set<Promise<void>>();
  /** Downloads under way, settled or not: `close()` waits for them to end. */
  readonly #downloads = new Set<Promise<unknown>>();
  /** Timers of worker starts after a failed one. */
  readonly #restarts = new Set<Timer>();
  readonly #urlMessages: UrlMessageCounts = {
    askMessages: 0,
    asks: 0,
    answerMessages: 0,
  };
  #lastJob = 0;
  #seedBytes = 0;
  /** The kinds of part the workers were told to load the code of, and a new one is too. */
  readonly #prepared = new Set<PartKind>();
  #listed?: Promise<void>;
  #initialised = false;
  #closed = false;
  /** Aborted by `close()`: calls still waiting for the listing end with it. */
  readonly #closing = new AbortController();
  /** Failed worker starts since a worker last loaded. */
  #startFailures = 0;
  /** Why the workers could not start, once the pool gave up. */
  #broken?: Error;

  /**
   * Starts the workers; they receive the dataset once its listing is read.
   * @param fs the instance whose options, listing, URL cache and HEAD
   * budget the pool shares
   * @param options number of workers and where their module is
   */
  constructor(fs: RepoFs, options: PoolOptions = {}) {
    super();
    const size = options.workers ??
      globalThis.navigator?.hardwareConcurrency ?? FALLBACK_WORKERS;
    if (!Number.isInteger(size) || size < 1) {
      throw new TypeError(`workers must be an integer >= 1, got ${size}`);
    }
    this.size = size;
    this.#fs = fs;
    this.metadata = fs.metadata;
    this.#workerUrl = options.workerUrl ?? WORKER_URL;
    for (let i = 0; i < size; i++) this.#slots.push(this.#spawn());
    this.decoders = {
      workers: size,
      prepare: (kind) => this.#prepare(kind),
      readArrayParts: (requests, options) =>
        this.#readArrayParts(requests, options),
      readParquet: (request, options) =>
        this.#dispatch({ type: "parquet", request }, options ?? {}),
      readRaster: (request, options) =>
        this.#dispatch({ type: "raster", request }, options ?? {}),
    };
  }

  /** As {@linkcode RepoFs.catFile}, done in a worker; aborting `signal` stops it there. */
  catFile(
    path: string,
    options: { start?: number; end?: number; signal?: AbortSignal } = {},
  ): Promise<Uint8Array> {
    return this.#read(path, options, new SameObject());
  }

  /**
   * As {@linkcode RepoFsPool.catFile}, every answer held to `object`, which
   * the worker's first answer pins when nothing has yet.
   */
  async #read(
    path: string,
    options: { start?: number; end?: number; signal?: AbortSignal },
    object: SameObject,
  ): Promise<Uint8Array> {
    const { start, end } = options;
    const { bytes, pinned } = await this.#dispatch<
      Extract<FromWorker, { type: "bytes" }>
    >({ type: "cat", path, start, end, pinned: object.pinned }, options);
    if (pinned !== undefined) object.adopt(pinned, path);
    return bytes;
  }

  /**
   * An open file whose reads and streams go through the workers, a window
   * at a time. As for {@linkcode RepoFs.open}, all are of the object its
   * first answer came from: a later one finding another fails with a
   * `RepoChangedError`.
   */
  open(path: string): Promise<RepoFile> {
    return poolFile({
      info: (path) => this.info(path),
      catFile: (path, options, object) => this.#read(path, options, object),
    }, path);
  }

  /**
   * Zarr array parts read and decoded in the workers, in request order.
   * Aborting `signal` stops the parts still being read.
   */
  #readArrayParts(
    requests: ArrayPartRequest[],
    options: { signal?: AbortSignal } = {},
  ): Promise<ArrayPartResult[]> {
    return Promise.all(
      requests.map((request) =>
        this.#dispatch<ArrayPartResult>({ type: "array", request }, options)
      ),
    );
  }

  /**
   * Downloads a file to `target` in a worker: streamed to a temporary file
   * beside it (made here, so that this thread can remove it, and a worker
   * ended on its way cannot make it again), checked against the listing
   * (see `file_download.ts`), then renamed into place. `target` must be a
   * path the caller has checked is safe to write. Aborting removes the
   * temporary file before the promise rejects, within about a second even
   * when the worker is stuck.
   */
  downloadToFile(
    path: string,
    target: string,
    options: DownloadToFileOptions = {},
  ): Promise<Downloaded> {
    const downloading = this.#download(path, target, options);
    const settled = downloading.catch(() => {});
    this.#downloads.add(settled);
    settled.finally(() => this.#downloads.delete(settled));
    return downloading;
  }

  async #download(
    path: string,
    target: string,
    options: DownloadToFileOptions,
  ): Promise<Downloaded> {
    this.#checkOpen();
    const { createTemporary, removeTemporary } = await import(
      "../download/file_download.ts"
    );
    const { resume, keepIfAborted } = options;
    if (resume === true || keepIfAborted === true) {
      // Its partial file may stay: the next resume goes on from it.
      const { prepareFolderOf } = await import("../download/folder_access.ts");
      await prepareFolderOf(target);
      return await this.#dispatch(
        { type: "download", path, target, resume, keepIfAborted },
        options,
      );
    }
    const temporary = options.temporary ?? await createTemporary(target);
    try {
      return await this.#dispatch(
        { type: "download", path, target, temporary },
        options,
      );
    } catch (error) {
      // Gone already when a worker had it (it, or #abandon, removed it).
      await removeTemporary(temporary).catch(() => {});
      throw error;
    }
  }

  /**
   * Its instance's table: the tree verbs answer from the main thread.
   * @ignore
   */
  protected routingTable(): Promise<RoutingTable> {
    const table = this.#fs[INTERNALS].routingTable();
    // The workers are given the dataset as soon as it is listed, not when the first part is sent.
    if (!this.#initialised) {
      table.then(() => this.#whenListed()).catch(() => {});
    }
    return table;
  }

  /**
   * Ends every worker; pending and later calls reject. The URL lookups the
   * workers had asked for are withdrawn, and the promise resolves once
   * none is left running and the temporary files of the downloads cut
   * short are removed.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closed = new Error("The RepoFsPool was closed");
    this.#closing.abort(closed);
    this.#endAll(closed);
    await Promise.all([
      ...this.#resolving,
      ...this.#cleanups,
      ...this.#downloads,
    ]);
  }

  /** Same as {@linkcode RepoFsPool.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #dispatch<T>(
    request: Request,
    options: { signal?: AbortSignal; onBytes?: (bytes: number) => void },
  ): Promise<T> {
    const { signal, onBytes } = options;
    this.#checkOpen();
    signal?.throwIfAborted();
    if (!this.#initialised) {
      await abortable(this.#whenListed(), signal, this.#closing.signal);
      this.#checkOpen();
      signal?.throwIfAborted();
    }
    const slot = this.#slots.reduce((a, b) =>
      b.jobs.size < a.jobs.size ? b : a
    );
    const id = ++this.#lastJob;
    const forget = whenAborted(signal, () => this.#cancel(id, signal!.reason));
    try {
      return await new Promise<T>((resolve, reject) => {
        const message = { ...request, job: id } as ToWorker;
        this.#jobs.set(id, {
          slot,
          message,
          resolve: resolve as (value: unknown) => void,
          reject,
          onProgress: onBytes,
          temporary: request.type === "download"
            ? request.temporary
            : undefined,
        });
        slot.jobs.add(id);
        this.#post(slot, this.#forSlot(slot, message));
      });
    } finally {
      forget();
    }
  }

  /**
   * The caller aborted job `id`: the worker is told to stop, and its answer
   * (after its own clean-up) settles the job, with `reason` unless the work
   * was already done. No answer within the grace ends the worker.
   */
  #cancel(id: number, reason: unknown): void {
    const job = this.#jobs.get(id);
    if (job === undefined || job.aborted) return;
    const { slot } = job;
    if (slot.dead) return this.#abandon(id, reason);
    const grace = setTimeout(
      () =>
        this.#replace(
          slot,
          `it did not answer a cancel within ${CANCEL_GRACE_MS} ms`,
        ),
      CANCEL_GRACE_MS,
    );
    job.aborted = { reason, grace };
    this.#post(slot, { type: "cancel", job: id });
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("The RepoFsPool is closed");
    if (this.#broken !== undefined) throw this.#broken;
  }

  /** Reads the listing once, then hands every worker the dataset. */
  #whenListed(): Promise<void> {
    this.#listed ??= this.#fs.info("").then(
      () => {
        this.#initialised = true;
        const serialized = this.#serialized();
        for (const slot of this.#slots) this.#init(slot, serialized);
      },
      (error) => {
        this.#listed = undefined;
        throw error;
      },
    );
    return this.#listed;
  }

  /**
   * Parts of `kind` are coming: the workers load their code while this
   * thread reads the file's metadata.
   */
  #prepare(kind: PartKind): void {
    if (this.#closed || this.#prepared.has(kind)) return;
    this.#prepared.add(kind);
    for (const slot of this.#slots) this.#post(slot, { type: "prepare", kind });
  }

  /**
   * `message` as `slot` is sent it: a seed's metadata bytes go to each
   * worker once, with its first part of the read; its later parts carry
   * the seed without them (its validators name the array the worker opened).
   */
  #forSlot(slot: Slot, message: ToWorker): ToWorker {
    const seed = message.type === "array"
      ? message.request.metadata
      : undefined;
    if (seed === undefined || message.type !== "array") return message;
    if (!slot.seeds.has(seed)) {
      slot.seeds.add(seed);
      for (const { bytes } of seed.ranges) this.#seedBytes += bytes.length;
      return message;
    }
    const metadata = { ...seed, ranges: [] };
    return { ...message, request: { ...message.request, metadata } };
  }

  #init(slot: Slot, serialized = this.#serialized()): void {
    this.#post(slot, { type: "init", serialized });
  }

  /** The dataset for a worker, with its share of the fs's `getConcurrency`. */
  #serialized(): SerializedRepoFs {
    const serialized = this.#fs.serialize();
    const getConcurrency = Math.ceil(this.#fs.getConcurrency / this.size);
    return {
      ...serialized,
      options: { ...serialized.options, getConcurrency },
    };
  }

  #post(slot: Slot, message: ToWorker): void {
    if (!slot.dead) slot.worker.post(message);
  }

  #spawn(): Slot {
    const slot: Slot = {
      worker: startWorker(this.#workerUrl, {
        message: (message) => this.#receive(slot, message),
        failed: (reason) => this.#lost(slot, reason),
      }),
      jobs: new Set(),
      asks: new Map(),
      answers: new Batch((answers) => {
        this.#urlMessages.answerMessages++;
        this.#post(slot, { type: "resolved", answers });
      }),
      known: new Batch((urls) => this.#post(slot, { type: "known", urls })),
      seeds: new WeakSet(),
      ready: false,
      dead: false,
    };
    for (const kind of this.#prepared) {
      this.#post(slot, { type: "prepare", kind });
    }
    return slot;
  }

  #receive(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case "ready":
        slot.ready = true;
        this.#startFailures = 0;
        return;
      case "resolve":
        this.#urlMessages.askMessages++;
        this.#urlMessages.asks += message.asks.length;
        for (const ask of message.asks) this.#answer(slot, ask);
        return;
      case "withdraw":
        for (const ask of message.asks) {
          slot.asks.get(ask)?.abort(
            new DOMException(
              "The worker no longer needs this URL",
              "AbortError",
            ),
          );
        }
        return;
      case "bytes":
        return this.#settle(message.job, { value: message });
      case "array":
        return this.#settle(message.job, { value: message.part });
      case "parquet":
        return this.#settle(message.job, { value: message.rows });
      case "raster":
        return this.#settle(message.job, { value: message.raster });
      case "downloaded":
        return this.#settle(message.job, { value: message.result });
      case "progress":
        this.#jobs.get(message.job)?.onProgress?.(message.bytes);
        return;
      case "failed":
        return this.#settle(message.job, {
          error: reviveError(message.error),
        });
    }
  }

  /**
   * Resolves a worker's URL ask through the pool's one cache and HEAD
   * budget; the answer joins the others of its microtask run, unless the
   * worker withdrew the ask. A URL found is also sent to the other workers.
   */
  #answer(slot: Slot, { ask, file, stale }: UrlAsk): void {
    const withdrawn = new AbortController();
    slot.asks.set(ask, withdrawn);
    const answered = this.#fs[INTERNALS].urls.resolve(
      file,
      stale,
      withdrawn.signal,
    ).then(
      (url): UrlAnswer => {
        const key = cacheKey(file);
        const entry = cachedUrl(file, url);
        for (const other of this.#slots) {
          if (other !== slot) other.known.add(key, entry);
        }
        return { ask, url };
      },
      (error): UrlAnswer => ({ ask, error: flattenError(error) }),
    ).then((answer) => {
      if (!withdrawn.signal.aborted) slot.answers.add(ask, answer);
    }).finally(() => {
      this.#resolving.delete(answered);
      slot.asks.delete(ask);
    });
    this.#resolving.add(answered);
  }

  /**
   * The worker's answer to job `id`. A job the caller aborted rejects with
   * the caller's reason, unless the worker had already finished it.
   */
  #settle(id: number, outcome: { value: unknown } | { error: unknown }): void {
    const job = this.#detach(id);
    if (job === undefined) return;
    if ("value" in outcome) job.resolve(outcome.value);
    else job.reject(job.aborted ? job.aborted.reason : outcome.error);
  }

  /**
   * Job `id` lost its worker: its temporary file, if any, is removed, then
   * it rejects with `error` (with the caller's reason if it was aborted).
   */
  #abandon(id: number, error: unknown): void {
    const job = this.#detach(id);
    if (job === undefined) return;
    const reason = job.aborted ? job.aborted.reason : error;
    if (job.temporary === undefined) return job.reject(reason);
    const cleanup = import("../download/file_download.ts")
      .then(({ removeTemporary }) => removeTemporary(job.temporary!))
      .then(() => job.reject(reason), job.reject)
      .finally(() => this.#cleanups.delete(cleanup));
    this.#cleanups.add(cleanup);
  }

  #detach(id: number): Job | undefined {
    const job = this.#jobs.get(id);
    if (job === undefined) return undefined;
    this.#jobs.delete(id);
    job.slot.jobs.delete(id);
    clearTimeout(job.aborted?.grace);
    return job;
  }

  /** A worker died: before it loaded, that is a failed start. */
  #lost(slot: Slot, reason: string): void {
    if (slot.dead) return;
    if (slot.ready) this.#replace(slot, reason);
    else this.#startFailed(slot, reason);
  }

  /**
   * A worker that had loaded died or is stuck: it is ended, its requests
   * fail, and a new worker takes its place.
   */
  #replace(slot: Slot, reason: string): void {
    if (slot.dead) return;
    this.#end(slot);
    for (const id of [...slot.jobs]) {
      this.#abandon(id, new WorkerCrashedError(reason));
    }
    if (!this.#closed) this.#takeOver(slot);
  }

  /**
   * A worker failed to load: a new one is started after a backoff and
   * given its jobs, or, after too many failures in a row, the pool gives up.
   */
  #startFailed(slot: Slot, reason: string): void {
    this.#end(slot);
    for (const id of [...slot.jobs]) {
      if (this.#jobs.get(id)!.aborted) this.#abandon(id, reason);
    }
    this.#startFailures++;
    const denied = permissionError(reason);
    if (denied !== undefined || this.#startFailures >= START_ATTEMPTS) {
      this.#broken = denied ??
        new WorkerCrashedError(reason, { startAttempts: START_ATTEMPTS });
      this.#endAll(this.#broken);
      return;
    }
    const delay = FIRST_RESTART_DELAY_MS * 2 ** (this.#startFailures - 1);
    const timer = setTimeout(() => {
      this.#restarts.delete(timer);
      const fresh = this.#takeOver(slot);
      for (const id of slot.jobs) {
        const job = this.#jobs.get(id)!;
        job.slot = fresh;
        fresh.jobs.add(id);
        this.#post(fresh, this.#forSlot(fresh, job.message));
      }
    }, delay);
    this.#restarts.add(timer);
  }

  /** A new worker in the place of `slot`, given the dataset if it is read. */
  #takeOver(slot: Slot): Slot {
    const fresh = this.#spawn();
    this.#slots[this.#slots.indexOf(slot)] = fresh;
    if (this.#initialised) this.#init(fresh);
    return fresh;
  }

  /** Terminates the worker and withdraws the URL asks it left. */
  #end(slot: Slot): void {
    slot.dead = true;
    slot.worker.terminate();
    for (const withdrawn of slot.asks.values()) {
      withdrawn.abort(new DOMException("The worker has ended", "AbortError"));
    }
  }

  /** Ends every worker and every job, and starts no worker again. */
  #endAll(error: Error): void {
    for (const timer of this.#restarts) clearTimeout(timer);
    this.#restarts.clear();
    for (const slot of this.#slots) this.#end(slot);
    for (const id of [...this.#jobs.keys()]) this.#abandon(id, error);
  }
}

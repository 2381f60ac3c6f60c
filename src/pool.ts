/**
 * `RepoFsPool`: Web Workers that read and decode in parallel, each holding a
 * `RepoFs` rebuilt from the main thread's serialised form. Workers ask the
 * main thread for content URLs, so the whole pool keeps one HEAD budget of
 * `headConcurrency` and resolves each file id once.
 *
 * @module
 */

import type { ArrayPartRequest, ArrayPartResult } from "./array_part.ts";
import { WorkerCrashedError } from "./errors.ts";
import type { Downloaded, DownloadToFileOptions } from "./file_download.ts";
import {
  flattenError,
  type FromWorker,
  reviveError,
  type ToWorker,
} from "./pool_protocol.ts";
import type { FindOptions, RepoFs } from "./repo_fs.ts";
import type { FileInfo } from "./types.ts";

/**
 * Options of `new RepoFsPool(fs, options)`.
 *
 * @example
 * ```ts
 * import type { PoolOptions } from "./pool.ts";
 * const options: PoolOptions = { workers: 4 };
 * ```
 */
export interface PoolOptions {
  /** Number of workers; default `navigator.hardwareConcurrency`. */
  workers?: number;
}

/**
 * One request of {@linkcode RepoFsPool.catRanges}.
 *
 * @example
 * ```ts
 * import type { RangeRequest } from "./pool.ts";
 * const r: RangeRequest = { path: "climate.zarr/temp/0.0", start: 0, end: 1024 };
 * ```
 */
export interface RangeRequest {
  /** Dataset path of a file. */
  path: string;
  /** First byte (negative: from the end). */
  start?: number;
  /** Byte after the last (exclusive; negative: from the end). */
  end?: number;
}

interface Slot {
  worker: Worker;
  jobs: Set<number>;
  /** The worker's URL asks being answered, by ask number. */
  asks: Map<number, AbortController>;
  dead: boolean;
}

interface Job {
  slot: Slot;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (bytes: number) => void;
}

type Request =
  | Omit<Extract<ToWorker, { type: "cat" }>, "job">
  | Omit<Extract<ToWorker, { type: "array" }>, "job">
  | Omit<Extract<ToWorker, { type: "download" }>, "job">;

const WORKER_URL = new URL("../workers/range_worker.ts", import.meta.url);

/**
 * Test seam: `pool[crashWorker](index)` makes a worker throw an uncaught
 * error, as a crash would.
 *
 * @example
 * ```ts ignore
 * import { crashWorker } from "./pool.ts";
 * pool[crashWorker](0); // its requests reject with WorkerCrashedError
 * ```
 */
export const crashWorker: unique symbol = Symbol("repo-fs.crashWorker");

/**
 * A pool of workers reading one dataset.
 *
 * @example
 * ```ts ignore
 * import { RepoFs, RepoFsPool } from "../mod.ts";
 * const fs = new RepoFs({ host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" });
 * await using pool = new RepoFsPool(fs, { workers: 4 });
 * const chunks = await pool.catRanges([
 *   { path: "climate.zarr/temp/0.0" },
 *   { path: "climate.zarr/temp/0.1" },
 * ]);
 * ```
 */
export class RepoFsPool implements AsyncDisposable {
  /** Number of workers. */
  readonly size: number;
  readonly #fs: RepoFs;
  readonly #slots: Slot[] = [];
  readonly #jobs = new Map<number, Job>();
  /** URL lookups asked for by workers, until answered. */
  readonly #resolving = new Set<Promise<void>>();
  #lastJob = 0;
  #ready?: Promise<void>;
  #initialised = false;
  #closed = false;

  /**
   * Starts the workers; they receive the dataset once its listing is read.
   * @param fs the instance whose options, listing, URL cache and HEAD
   * budget the pool shares
   * @param options number of workers
   */
  constructor(fs: RepoFs, options: PoolOptions = {}) {
    const size = options.workers ?? navigator.hardwareConcurrency;
    if (!Number.isInteger(size) || size < 1) {
      throw new TypeError(`workers must be an integer >= 1, got ${size}`);
    }
    this.size = size;
    this.#fs = fs;
    for (let i = 0; i < size; i++) this.#slots.push(this.#spawn());
  }

  /** As {@linkcode RepoFs.catFile}, done in a worker. */
  catFile(
    path: string,
    options: { start?: number; end?: number } = {},
  ): Promise<Uint8Array> {
    const { start, end } = options;
    return this.#dispatch({ type: "cat", path, start, end });
  }

  /** One `Uint8Array` per request, in request order, fanned out over the workers. */
  catRanges(requests: RangeRequest[]): Promise<Uint8Array[]> {
    return Promise.all(requests.map((r) => this.catFile(r.path, r)));
  }

  /**
   * Zarr array parts read and decoded in the workers, in request order.
   * Aborting `signal` stops the parts still being read.
   */
  readArrayParts(
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
   * Downloads a file to `target` in a worker: streamed to a temporary name
   * beside it, checked against the listing's MD5 and size, then renamed
   * into place (see `src/file_download.ts`). `target` must be a path the
   * caller has checked is safe to write. Aborting removes the temporary
   * file before the promise rejects.
   */
  downloadToFile(
    path: string,
    target: string,
    options: DownloadToFileOptions = {},
  ): Promise<Downloaded> {
    return this.#dispatch({ type: "download", path, target }, options);
  }

  /** As {@linkcode RepoFs.info}, from the main thread's table. */
  info(path: string): Promise<FileInfo> {
    return this.#fs.info(path);
  }

  /** As {@linkcode RepoFs.exists}, from the main thread's table. */
  exists(path: string): Promise<boolean> {
    return this.#fs.exists(path);
  }

  /** As {@linkcode RepoFs.ls}, from the main thread's table. */
  ls(path = ""): Promise<FileInfo[]> {
    return this.#fs.ls(path);
  }

  /** As {@linkcode RepoFs.find}, from the main thread's table. */
  find(path = "", options: FindOptions = {}): Promise<string[]> {
    return this.#fs.find(path, options);
  }

  /** As {@linkcode RepoFs.glob}, from the main thread's table. */
  glob(pattern: string): Promise<string[]> {
    return this.#fs.glob(pattern);
  }

  /**
   * Ends every worker; pending and later calls reject. The URL lookups the
   * workers had asked for are withdrawn, and the promise resolves once
   * none is left running.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const slot of this.#slots) this.#end(slot);
    for (const job of this.#jobs.values()) {
      job.reject(new Error("The RepoFsPool was closed"));
    }
    this.#jobs.clear();
    await Promise.all(this.#resolving);
  }

  /** Same as {@linkcode RepoFsPool.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Test seam: worker `index` throws an uncaught error, as a crash would. */
  [crashWorker](index: number, reason = "crash requested by a test"): void {
    this.#slots[index].worker.postMessage(
      { type: "crash", reason } satisfies ToWorker,
    );
  }

  async #dispatch<T>(
    message: Request,
    options: DownloadToFileOptions = {},
  ): Promise<T> {
    const { signal, onBytes } = options;
    this.#checkOpen();
    signal?.throwIfAborted();
    await this.#whenReady();
    this.#checkOpen();
    signal?.throwIfAborted();
    const slot = this.#slots.reduce((a, b) =>
      b.jobs.size < a.jobs.size ? b : a
    );
    const job = ++this.#lastJob;
    // The worker answers a cancel once it has cleaned up; that answer settles the job.
    const cancel = () =>
      slot.worker.postMessage({ type: "cancel", job } satisfies ToWorker);
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await new Promise<T>((resolve, reject) => {
        this.#jobs.set(job, {
          slot,
          resolve: resolve as (value: unknown) => void,
          reject,
          onProgress: onBytes,
        });
        slot.jobs.add(job);
        slot.worker.postMessage({ ...message, job } satisfies ToWorker);
      });
    } finally {
      signal?.removeEventListener("abort", cancel);
    }
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("The RepoFsPool is closed");
  }

  /** Reads the listing once, then hands every worker the dataset. */
  #whenReady(): Promise<void> {
    this.#ready ??= this.#fs.info("").then(
      () => {
        this.#initialised = true;
        for (const slot of this.#slots) this.#init(slot);
      },
      (error) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  #init(slot: Slot): void {
    const serialized = this.#fs.serialize();
    slot.worker.postMessage({ type: "init", serialized } satisfies ToWorker);
  }

  #spawn(): Slot {
    const worker = new Worker(WORKER_URL, { type: "module" });
    const slot: Slot = {
      worker,
      jobs: new Set(),
      asks: new Map(),
      dead: false,
    };
    worker.onmessage = (event: MessageEvent<FromWorker>) =>
      this.#receive(slot, event.data);
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#replace(slot, event.message || "unknown error");
    };
    worker.onmessageerror = () => this.#replace(slot, "unreadable message");
    return slot;
  }

  #receive(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case "resolve": {
        const withdrawn = new AbortController();
        slot.asks.set(message.ask, withdrawn);
        const answered = this.#fs.resolveContentUrl(
          message.fileId,
          message.stale,
          withdrawn.signal,
        ).then(
          (url) => ({ type: "resolved", ask: message.ask, url }) as const,
          (error) =>
            ({
              type: "resolved",
              ask: message.ask,
              error: flattenError(error),
            }) as const,
        ).then((answer) => {
          if (withdrawn.signal.aborted || slot.dead) return;
          slot.worker.postMessage(answer satisfies ToWorker);
        }).finally(() => {
          this.#resolving.delete(answered);
          slot.asks.delete(message.ask);
        });
        this.#resolving.add(answered);
        return;
      }
      case "withdraw":
        slot.asks.get(message.ask)?.abort(
          new DOMException("The worker no longer needs this URL", "AbortError"),
        );
        return;
      case "bytes":
        return this.#settle(message.job, (job) => job.resolve(message.bytes));
      case "array":
        return this.#settle(message.job, (job) => job.resolve(message.part));
      case "downloaded":
        return this.#settle(message.job, (job) => job.resolve(message.result));
      case "progress":
        this.#jobs.get(message.job)?.onProgress?.(message.bytes);
        return;
      case "failed":
        return this.#settle(
          message.job,
          (job) => job.reject(reviveError(message.error)),
        );
    }
  }

  #settle(id: number, settle: (job: Job) => void): void {
    const job = this.#jobs.get(id);
    if (job === undefined) return;
    this.#jobs.delete(id);
    job.slot.jobs.delete(id);
    settle(job);
  }

  /** A worker died: its requests fail, and a new worker takes its place. */
  /** Terminates the worker and withdraws the URL asks it left. */
  #end(slot: Slot): void {
    slot.dead = true;
    slot.worker.terminate();
    for (const withdrawn of slot.asks.values()) {
      withdrawn.abort(new DOMException("The worker has ended", "AbortError"));
    }
  }

  #replace(slot: Slot, reason: string): void {
    if (slot.dead) return;
    this.#end(slot);
    for (const id of slot.jobs) {
      this.#settle(id, (job) => job.reject(new WorkerCrashedError(reason)));
    }
    if (this.#closed) return;
    const fresh = this.#spawn();
    this.#slots[this.#slots.indexOf(slot)] = fresh;
    if (this.#initialised) this.#init(fresh);
  }
}

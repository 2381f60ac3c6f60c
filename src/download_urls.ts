/**
 * The download URL cache: one HEAD per file id, at most `headConcurrency`
 * HEADs in flight, concurrent asks for one id sharing one HEAD, and URLs
 * re-resolved shortly before their signature runs out.
 *
 * @module
 */

import type { AccessAnswer } from "./repo_api.ts";
import { Semaphore } from "./semaphore.ts";
import { isNearExpiry, urlExpiry } from "./signed_url.ts";
import type { Logger } from "./types.ts";

/**
 * A content URL with what is known about it.
 *
 * @example
 * ```ts
 * import type { ResolvedUrl } from "./download_urls.ts";
 * const r: ResolvedUrl = { url: "https://s3.example/b/k", direct: false, resolvedAt: Date.now(), expiresAt: Infinity };
 * ```
 */
export interface ResolvedUrl extends AccessAnswer {
  /** When it was resolved, epoch ms. */
  resolvedAt: number;
  /** When its signature runs out, epoch ms (`Infinity` if unsigned). */
  expiresAt: number;
}

/**
 * Anything that turns a file id into a content URL. `stale` names a URL that
 * failed: the resolver must not hand it out again.
 *
 * @example
 * ```ts
 * import type { UrlResolver } from "./download_urls.ts";
 * const fixed: UrlResolver = {
 *   resolve: (id) => Promise.resolve({ url: `https://s3.example/${id}`, direct: false, resolvedAt: 0, expiresAt: Infinity }),
 * };
 * ```
 */
export interface UrlResolver {
  /** The content URL of `fileId`; `signal` withdraws the ask. */
  resolve(
    fileId: number,
    stale?: string,
    signal?: AbortSignal,
  ): Promise<ResolvedUrl>;
}

/**
 * A cache entry in plain form: `[fileId, url, direct]`.
 *
 * @example
 * ```ts
 * import type { CachedUrl } from "./download_urls.ts";
 * const entry: CachedUrl = [7, "https://s3.example/b/k?X-Amz-Signature=1", false];
 * ```
 */
export type CachedUrl = [fileId: number, url: string, direct: boolean];

/**
 * Where a {@linkcode DownloadUrls} cache gets a URL it lacks: a HEAD to the
 * repository, or (in a pool's worker) the main thread's cache. `stale` is
 * the URL that failed, if that is why it asks; `signal` aborts once nobody
 * waits for the answer any more.
 *
 * @example
 * ```ts ignore
 * import type { UrlLookup } from "./download_urls.ts";
 * const lookup: UrlLookup = (fileId) => api.head(fileId);
 * ```
 */
export type UrlLookup = (
  fileId: number,
  stale: string | undefined,
  signal: AbortSignal,
) => Promise<AccessAnswer>;

/** A lookup in flight and how many askers that may withdraw still wait. */
interface Pending {
  promise: Promise<ResolvedUrl>;
  askers: number;
  controller: AbortController;
}

/**
 * The URL cache: one lookup per file id, at most `concurrency` lookups in
 * flight. A lookup whose askers have all withdrawn (aborted their signals)
 * is aborted, or never started.
 *
 * @example
 * ```ts ignore
 * import { DownloadUrls } from "./download_urls.ts";
 * const urls = new DownloadUrls((id) => api.head(id), 3);
 * const { url } = await urls.resolve(42);
 * ```
 */
export class DownloadUrls implements UrlResolver {
  readonly #cache = new Map<number, ResolvedUrl>();
  readonly #pending = new Map<number, Pending>();
  readonly #lookups: Semaphore;

  /**
   * Makes an empty cache.
   * @param lookup where missing URLs come from
   * @param concurrency most lookups in flight
   * @param logger receives one debug line per lookup
   */
  constructor(
    readonly lookup: UrlLookup,
    concurrency: number,
    readonly logger?: Logger,
  ) {
    this.#lookups = new Semaphore(concurrency);
  }

  /** Adds entries resolved elsewhere (a serialised instance's cache). */
  load(entries: CachedUrl[]): void {
    const now = Date.now();
    for (const [id, url, direct] of entries) {
      this.#cache.set(id, resolved({ url, direct }, now));
    }
  }

  /**
   * The cached content URL of `fileId`, looking it up once if needed.
   * Aborting `signal` rejects this ask at once.
   */
  resolve(
    fileId: number,
    stale?: string,
    signal?: AbortSignal,
  ): Promise<ResolvedUrl> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const known = this.#cache.get(fileId);
    if (known && known.url !== stale && !isStale(known)) {
      return Promise.resolve(known);
    }
    let pending = this.#pending.get(fileId);
    if (pending === undefined) {
      const controller = new AbortController();
      const entry: Pending = {
        askers: 0,
        controller,
        promise: this.#lookUp(fileId, stale, controller.signal).finally(() =>
          this.#forget(fileId, entry)
        ),
      };
      pending = entry;
      this.#pending.set(fileId, entry);
    }
    if (signal === undefined) {
      pending.askers = Infinity;
      return pending.promise;
    }
    return this.#withdrawable(fileId, pending, signal);
  }

  /** The cache in plain form. */
  entries(): CachedUrl[] {
    return [...this.#cache].map(([id, { url, direct }]) => [id, url, direct]);
  }

  /** One asker's share of `pending`, rejected when `signal` aborts. */
  #withdrawable(
    fileId: number,
    pending: Pending,
    signal: AbortSignal,
  ): Promise<ResolvedUrl> {
    pending.askers++;
    return new Promise((resolve, reject) => {
      const withdraw = () => {
        reject(signal.reason);
        if (--pending.askers > 0) return;
        this.#forget(fileId, pending);
        pending.controller.abort(signal.reason);
      };
      signal.addEventListener("abort", withdraw, { once: true });
      pending.promise.then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", withdraw)
      );
    });
  }

  #forget(fileId: number, pending: Pending): void {
    if (this.#pending.get(fileId) === pending) this.#pending.delete(fileId);
  }

  async #lookUp(
    fileId: number,
    stale: string | undefined,
    signal: AbortSignal,
  ): Promise<ResolvedUrl> {
    const started = performance.now();
    const { value, waitedMs } = await this.#lookups.run(
      () => this.lookup(fileId, stale, signal),
      signal,
    );
    const total = performance.now() - started;
    this.logger?.debug(
      `HEAD file ${fileId}: waited ${
        waitedMs.toFixed(1)
      } ms for the semaphore, ${total.toFixed(1)} ms in total`,
    );
    const entry = resolved(value, Date.now());
    this.#cache.set(fileId, entry);
    return entry;
  }
}

function resolved(answer: AccessAnswer, resolvedAt: number): ResolvedUrl {
  const expiresAt = answer.direct ? Infinity : urlExpiry(answer.url);
  return { ...answer, resolvedAt, expiresAt };
}

function isStale(entry: ResolvedUrl): boolean {
  return isNearExpiry(entry.expiresAt, entry.expiresAt - entry.resolvedAt);
}

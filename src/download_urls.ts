/**
 * The download URL cache: one HEAD per file id, at most `headConcurrency`
 * HEADs in flight, concurrent asks for one id sharing one HEAD, and URLs
 * re-resolved shortly before their signature runs out.
 *
 * @module
 */

import type { AccessAnswer, RepoApi } from "./repo_api.ts";
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
  /** The content URL of `fileId`. */
  resolve(fileId: number, stale?: string): Promise<ResolvedUrl>;
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
 * The resolver that asks the repository, one HEAD per file id.
 *
 * @example
 * ```ts ignore
 * import { DownloadUrls } from "./download_urls.ts";
 * const urls = new DownloadUrls(api, 3);
 * const { url } = await urls.resolve(42);
 * ```
 */
export class DownloadUrls implements UrlResolver {
  readonly #cache = new Map<number, ResolvedUrl>();
  readonly #pending = new Map<number, Promise<ResolvedUrl>>();
  readonly #heads: Semaphore;

  /**
   * @param api the repository client
   * @param headConcurrency most HEADs in flight
   * @param logger receives one debug line per HEAD
   */
  constructor(
    readonly api: RepoApi,
    headConcurrency: number,
    readonly logger?: Logger,
  ) {
    this.#heads = new Semaphore(headConcurrency);
  }

  /** Adds entries resolved elsewhere (a serialised instance's cache). */
  load(entries: CachedUrl[]): void {
    const now = Date.now();
    for (const [id, url, direct] of entries) {
      this.#cache.set(id, resolved({ url, direct }, now));
    }
  }

  /** Most HEADs in flight. */
  get headConcurrency(): number {
    return this.#heads.size;
  }

  /** The cached content URL of `fileId`, resolving it with one HEAD if needed. */
  resolve(fileId: number, stale?: string): Promise<ResolvedUrl> {
    const known = this.#cache.get(fileId);
    if (known && known.url !== stale && !isStale(known)) {
      return Promise.resolve(known);
    }
    let pending = this.#pending.get(fileId);
    if (pending === undefined) {
      pending = this.#head(fileId).finally(() => this.#pending.delete(fileId));
      this.#pending.set(fileId, pending);
    }
    return pending;
  }

  /** The cache in plain form. */
  entries(): CachedUrl[] {
    return [...this.#cache].map(([id, { url, direct }]) => [id, url, direct]);
  }

  async #head(fileId: number): Promise<ResolvedUrl> {
    const started = performance.now();
    const { value, waitedMs } = await this.#heads.run(() =>
      this.api.head(fileId)
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

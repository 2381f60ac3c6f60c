/**
 * The download URL cache: one HEAD per file id, at most `headConcurrency`
 * HEADs in flight, concurrent asks for one id sharing one HEAD, URLs
 * re-resolved shortly before their signature runs out, and optionally a
 * {@linkcode UrlStore} that keeps them for later processes.
 *
 * @module
 */

import type { AccessAnswer } from "../api/repo_api.ts";
import { whenAborted } from "../base/abort_callbacks.ts";
import { Semaphore } from "../base/semaphore.ts";
import { isNearExpiry, localExpiry } from "./signed_url.ts";
import type {
  ContentKey,
  Logger,
  ResolvedUrl,
  SharedUrls,
} from "../base/types.ts";

/**
 * Anything that turns a file id (and format) into a content URL. `stale`
 * names a URL that the store refused: the resolver must not hand it out
 * again, and forgets it wherever it keeps it.
 */
export interface UrlResolver {
  /** The content URL of `file`; `signal` withdraws the ask. */
  resolve(
    file: ContentKey,
    stale?: string,
    signal?: AbortSignal,
  ): Promise<ResolvedUrl>;
}

/**
 * A cache entry in plain form: `[fileId, url, direct]`, and `"original"`
 * fourth for the URL of an original upload.
 */
export type CachedUrl = [
  fileId: number,
  url: string,
  direct: boolean,
  format?: "original",
];

/** The {@linkcode CachedUrl} form of `file`'s resolved `url`. */
export function cachedUrl(file: ContentKey, url: ResolvedUrl): CachedUrl {
  return file.format === undefined
    ? [file.id, url.url, url.direct]
    : [file.id, url.url, url.direct, file.format];
}

/**
 * Where a {@linkcode DownloadUrls} cache gets a URL it lacks: a HEAD to the
 * repository, or (in a pool's worker) the main thread's cache. `stale` is
 * the URL that failed, if that is why it asks; `signal` aborts once nobody
 * waits for the answer any more.
 */
export type UrlLookup = (
  file: ContentKey,
  stale: string | undefined,
  signal: AbortSignal,
) => Promise<AccessAnswer>;

/** A cached URL and what it is the URL of. */
export interface StoredUrl {
  /** The file (and format) the URL serves. */
  file: ContentKey;
  /** The URL, when it was resolved and when it runs out. */
  url: ResolvedUrl;
}

/**
 * Where resolved URLs outlive the process: {@linkcode DownloadUrls} reads
 * it once, before its first lookup, hands it every URL it resolves, and
 * tells it every URL the object store refused. No method throws or
 * rejects; a store that cannot be read reads as empty.
 */
export interface UrlStore {
  /** The URLs stored earlier, none of them near expiry. */
  read(): Promise<StoredUrl[]>;
  /** Keeps a URL just resolved. */
  add(entry: StoredUrl): void;
  /** Drops `url`, which the store refused, if it is kept as `file`'s. */
  forget(file: ContentKey, url: string): void;
}

/** A lookup in flight and how many askers that may withdraw still wait. */
interface Pending {
  promise: Promise<ResolvedUrl>;
  askers: number;
  controller: AbortController;
}

/**
 * The URL cache: one lookup per file id and format, at most `concurrency`
 * lookups in flight. A lookup whose askers have all withdrawn (aborted their signals)
 * is aborted, or never started.
 */
export class DownloadUrls implements UrlResolver {
  readonly #cache = new Map<string, StoredUrl>();
  readonly #pending = new Map<string, Pending>();
  readonly #lookups: Semaphore;
  #storeRead?: Promise<void>;

  /**
   * Makes an empty cache.
   * @param lookup where missing URLs come from
   * @param concurrency most lookups in flight
   * @param logger receives one debug line per lookup
   * @param store where URLs are kept for later processes, read before the first lookup
   * @param shared the fleet's cache and HEAD budget, asked before every HEAD
   */
  constructor(
    readonly lookup: UrlLookup,
    concurrency: number,
    readonly logger?: Logger,
    readonly store?: UrlStore,
    readonly shared?: SharedUrls,
  ) {
    this.#lookups = new Semaphore(concurrency);
  }

  /** Adds entries resolved elsewhere (a serialised instance's cache). */
  load(entries: CachedUrl[]): void {
    const now = Date.now();
    for (const [id, url, direct, format] of entries) {
      const file = contentKey({ id, format });
      this.#cache.set(cacheKey(file), {
        file,
        url: resolved({ url, direct }, now),
      });
    }
  }

  /**
   * The cached content URL of `file`, looking it up once if needed.
   * Aborting `signal` rejects this ask at once.
   */
  resolve(
    file: ContentKey,
    stale?: string,
    signal?: AbortSignal,
  ): Promise<ResolvedUrl> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const key = cacheKey(file);
    if (stale !== undefined) this.#refused(file, key, stale);
    const known = this.#usable(key, stale);
    if (known) return Promise.resolve(known);
    let pending = this.#pending.get(key);
    if (pending === undefined) {
      const controller = new AbortController();
      const entry: Pending = {
        askers: 0,
        controller,
        promise: this.#lookUp(contentKey(file), stale, controller.signal)
          .finally(() => this.#forget(key, entry)),
      };
      pending = entry;
      this.#pending.set(key, entry);
    }
    if (signal === undefined) {
      pending.askers = Infinity;
      return pending.promise;
    }
    return this.#withdrawable(key, pending, signal);
  }

  /**
   * Reads the store into the cache, if there is a store, once: the first
   * lookup waits for it, and `RepoFs` reads it beside the listing.
   */
  readStore(): Promise<void> {
    return this.#storeRead ??= this.store
      ? this.#readStore(this.store)
      : Promise.resolve();
  }

  /**
   * Drops the URLs that would not be handed out (near expiry) and those
   * whose expiry is unknown, which would be used until refused.
   */
  dropDoubtful(): void {
    for (const [key, { url }] of this.#cache) {
      if (isStale(url) || (!url.direct && url.expiresAt === Infinity)) {
        this.#cache.delete(key);
      }
    }
  }

  /** The cache in plain form. */
  entries(): CachedUrl[] {
    return [...this.#cache.values()].map(({ file, url }) =>
      cachedUrl(file, url)
    );
  }

  /** One asker's share of `pending`, rejected when `signal` aborts. */
  #withdrawable(
    key: string,
    pending: Pending,
    signal: AbortSignal,
  ): Promise<ResolvedUrl> {
    pending.askers++;
    return new Promise((resolve, reject) => {
      const forget = whenAborted(signal, () => {
        reject(signal.reason);
        if (--pending.askers > 0) return;
        this.#forget(key, pending);
        pending.controller.abort(signal.reason);
      });
      pending.promise.then(resolve, reject).finally(forget);
    });
  }

  /** Forgets `url`, which the store refused, here and in the store. */
  #refused(file: ContentKey, key: string, url: string): void {
    if (this.#cache.get(key)?.url.url === url) this.#cache.delete(key);
    this.store?.forget(contentKey(file), url);
  }

  /** The cached URL under `key` unless it is `stale` or near expiry. */
  #usable(key: string, stale: string | undefined): ResolvedUrl | undefined {
    const known = this.#cache.get(key)?.url;
    return known && known.url !== stale && !isStale(known) ? known : undefined;
  }

  /** Adds the store's URLs, keeping whichever of two runs out later. */
  async #readStore(store: UrlStore): Promise<void> {
    for (const entry of await store.read()) {
      const key = cacheKey(entry.file);
      const known = this.#cache.get(key)?.url;
      if (!known || known.expiresAt < entry.url.expiresAt) {
        this.#cache.set(key, entry);
      }
    }
  }

  #forget(key: string, pending: Pending): void {
    if (this.#pending.get(key) === pending) this.#pending.delete(key);
  }

  async #lookUp(
    file: ContentKey,
    stale: string | undefined,
    signal: AbortSignal,
  ): Promise<ResolvedUrl> {
    const key = cacheKey(file);
    if (this.store) {
      await this.readStore();
      const known = this.#usable(key, stale);
      if (known) return known;
    }
    const head = async (signal: AbortSignal) => {
      const started = performance.now();
      const { value, waitedMs } = await this.#lookups.run(
        () => this.lookup(file, stale, signal),
        signal,
      );
      const total = performance.now() - started;
      this.logger?.debug(
        `HEAD file ${key}: waited ${
          waitedMs.toFixed(1)
        } ms for the semaphore, ${total.toFixed(1)} ms in total`,
      );
      return resolved(value, Date.now());
    };
    const url = this.shared
      ? await this.shared.resolve(file, stale, signal, head)
      : await head(signal);
    this.#cache.set(key, { file, url });
    this.store?.add({ file, url });
    return url;
  }
}

/** Just the id and format of `file`, which may be a larger object. */
function contentKey({ id, format }: ContentKey): ContentKey {
  return format === undefined ? { id } : { id, format };
}

/** The one key of a file's content URL: its id, and the format read. */
export function cacheKey({ id, format }: ContentKey): string {
  return format === undefined ? String(id) : `${id}?format=${format}`;
}

function resolved(answer: AccessAnswer, resolvedAt: number): ResolvedUrl {
  const expiresAt = answer.direct
    ? Infinity
    : localExpiry(answer.url, resolvedAt, answer.date);
  return { ...answer, resolvedAt, expiresAt };
}

/**
 * Whether a URL is too close to its expiry to be handed out: within the
 * last tenth of the lifetime it had when it was resolved (at most 30 s).
 */
export function isStale(entry: ResolvedUrl): boolean {
  return isNearExpiry(entry.expiresAt, entry.expiresAt - entry.resolvedAt);
}

/**
 * The fleet-wide HEAD budget and URL cache behind the `coordinator` option:
 * every process given the same coordinator (a Redis server) and repository
 * sends at most `headConcurrency` HEADs at a time between them, and
 * resolves each file's URL once while it is valid.
 *
 * Keys, all below `repo-fs:{H}:` where `H` is a hash of the repository's
 * API base (the braces keep them in one slot of a Redis cluster):
 *
 * - `place:I` (I from 0 to `headConcurrency - 1`): a HEAD place, held as a
 *   lease of {@linkcode LEASE_MS} by the process sending a HEAD, renewed
 *   every {@linkcode RENEW_MS} while it runs, deleted when it ends. A
 *   process killed mid-HEAD stops renewing, and its place comes back when
 *   the lease runs out.
 * - `resolving:ID:FORMAT`: the lease of the one process resolving that
 *   file's URL; the others poll the URL key until it appears, and take over
 *   if the lease runs out.
 * - `url:ID:FORMAT`: the resolved URL (`{ url, direct, resolvedAt }`),
 *   expiring when a process would stop handing it out (shortly before the
 *   URL itself runs out; an hour for URLs that show no expiry), and
 *   deleted when the store refuses it.
 *
 * The API token is never stored, nor any URL that contains it.
 *
 * @module
 */

import type {
  ContentKey,
  Logger,
  ResolvedUrl,
  SharedUrls,
} from "../base/types.ts";
import { isStale } from "../urls/download_urls.ts";
import { expiryLeaving, usableUntil } from "../urls/signed_url.ts";
import {
  CoordinatorConnection,
  type Evaluate,
} from "./coordinator_connection.ts";
import { CoordinatorError } from "./coordinator_error.ts";
import {
  FINISH,
  GET_OR_CLAIM,
  RENEW,
  TAKE_PLACE,
} from "./coordinator_scripts.ts";
import { holdsSecret } from "../base/secrets.ts";
import { whenAborted } from "../base/abort_callbacks.ts";

/** How long a lease lasts without renewal: a killed process's places come back within it. */
export const LEASE_MS = 5_000;
/** How often held leases are renewed. */
export const RENEW_MS = 1_500;
/** Time to live of a URL that shows no expiry. */
const UNSIGNED_TTL_MS = 3_600_000;
/**
 * First and longest pause between two polls for a place or a URL (a place
 * given back in this process ends the pauses of its waiters at once).
 */
const POLL_MS = { first: 1, most: 2 };

/** The keys of one file's content. */
interface FileKeys {
  url: string;
  resolving: string;
}

/**
 * One repository's share of a coordinator, for the
 * {@linkcode DownloadUrls} of one `RepoFs`.
 */
export class Coordinator implements SharedUrls {
  readonly #connection: CoordinatorConnection;
  readonly #repository: string;
  readonly #places: number;
  readonly #logger?: Logger;
  readonly #held = new Map<string, string>();
  readonly #sleepers = new Set<() => void>();
  #prefix?: Promise<string>;
  #renewer?: ReturnType<typeof setInterval>;

  /**
   * Nothing is connected before the first lookup.
   * @param url `redis://host:port`, checked by `checkCoordinatorUrl`
   * @param repository the repository's API base, which names the keys
   * @param places the fleet's HEAD budget (`headConcurrency`)
   * @param logger receives a debug line per URL taken from the fleet, a warning per lease lost
   */
  constructor(
    url: string,
    repository: string,
    places: number,
    logger?: Logger,
  ) {
    this.#connection = new CoordinatorConnection(url);
    this.#repository = repository;
    this.#places = places;
    this.#logger = logger;
  }

  /** The fleet's URL of `file`, or `head`'s within a fleet-wide HEAD place. */
  resolve(
    file: ContentKey,
    stale: string | undefined,
    signal: AbortSignal,
    head: (signal: AbortSignal) => Promise<ResolvedUrl>,
  ): Promise<ResolvedUrl> {
    return this.#connection.use(async (evaluate) => {
      const keys = await this.#fileKeys(file);
      let avoid = stale ?? "";
      const pause = pauses();
      for (;;) {
        signal.throwIfAborted();
        const owner = crypto.randomUUID();
        const [state, value, left] = await evaluate(
          GET_OR_CLAIM,
          [keys.url, keys.resolving],
          [owner, String(LEASE_MS), avoid],
        ) as [string, string?, number?];
        if (state === "claimed") {
          return await this.#resolveHere(evaluate, keys, owner, signal, head);
        }
        if (state === "cached") {
          const url = this.#entry(value!, left!, keys.url);
          if (!isStale(url)) {
            this.#logger?.debug(`URL of ${keys.url} from the coordinator`);
            return url;
          }
          avoid = url.url;
          continue;
        }
        await this.#nap(pause(), signal);
      }
    });
  }

  /** Resolves the file's URL with `head`, holding the resolving lease `owner`. */
  async #resolveHere(
    evaluate: Evaluate,
    keys: FileKeys,
    owner: string,
    signal: AbortSignal,
    head: (signal: AbortSignal) => Promise<ResolvedUrl>,
  ): Promise<ResolvedUrl> {
    this.#hold(keys.resolving, owner);
    let place: string | undefined;
    let entry = "";
    let ttl = 0;
    try {
      place = await this.#takePlace(evaluate, owner, signal);
      const url = await head(signal);
      ttl = timeToLive(url);
      if (ttl > 0 && !holdsSecret(url.url)) {
        const { url: href, direct, resolvedAt } = url;
        entry = JSON.stringify({ url: href, direct, resolvedAt });
      }
      return url;
    } finally {
      try {
        await evaluate(
          FINISH,
          [keys.url, keys.resolving, ...(place ? [place] : [])],
          [entry, String(Math.ceil(ttl)), owner],
        );
      } finally {
        this.#release(keys.resolving);
        if (place) this.#release(place);
        for (const wake of [...this.#sleepers]) wake();
      }
    }
  }

  /** Waits for a free HEAD place and holds it as `owner`; resolves to its key. */
  async #takePlace(
    evaluate: Evaluate,
    owner: string,
    signal: AbortSignal,
  ): Promise<string> {
    const prefix = await this.#keyPrefix();
    const places = Array.from(
      { length: this.#places },
      (_, i) => `${prefix}:place:${i}`,
    );
    const pause = pauses();
    for (;;) {
      signal.throwIfAborted();
      const index = await evaluate(TAKE_PLACE, places, [
        owner,
        String(LEASE_MS),
      ]) as number;
      if (index >= 0) {
        this.#hold(places[index], owner);
        return places[index];
      }
      await this.#nap(pause(), signal);
    }
  }

  /**
   * Waits `ms`, or less when this process gives back a place or a URL
   * arrives; rejects when `signal` aborts.
   */
  #nap(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const end = () => {
        clearTimeout(timer);
        this.#sleepers.delete(wake);
        forget();
      };
      const wake = () => (end(), resolve());
      const abort = () => (end(), reject(signal.reason));
      const timer = setTimeout(wake, ms);
      this.#sleepers.add(wake);
      const forget = whenAborted(signal, abort);
      if (signal.aborted) abort();
    });
  }

  /** Starts renewing lease `key`, held as `owner`. */
  #hold(key: string, owner: string): void {
    this.#held.set(key, owner);
    this.#renewer ??= setInterval(() => this.#renew(), RENEW_MS);
  }

  /** Stops renewing lease `key`. */
  #release(key: string): void {
    this.#held.delete(key);
    if (this.#held.size > 0) return;
    clearInterval(this.#renewer);
    this.#renewer = undefined;
  }

  async #renew(): Promise<void> {
    const keys = [...this.#held.keys()];
    const owners = keys.map((key) => this.#held.get(key)!);
    try {
      const lost = await this.#connection.use((evaluate) =>
        evaluate(RENEW, keys, [...owners, String(LEASE_MS)])
      ) as number;
      if (lost > 0) {
        this.#logger?.warn(
          `${lost} coordinator lease(s) ran out before they were renewed (was the process paused for ${LEASE_MS} ms?); the fleet may briefly exceed its HEAD budget`,
        );
      }
    } catch {
      // The coordinator is lost: the uses in flight reject with it.
    }
  }

  /**
   * A stored entry, checked, handed out for the `leftMs` its key has left
   * (see {@linkcode timeToLive}): measured by Redis, not by the clock of
   * the process that stored it.
   */
  #entry(value: string, leftMs: number, key: string): ResolvedUrl {
    let parsed: Partial<{ url: string; direct: boolean; resolvedAt: number }>;
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = {};
    }
    const { url, direct, resolvedAt } = parsed;
    if (
      typeof url !== "string" || typeof direct !== "boolean" ||
      !Number.isFinite(resolvedAt)
    ) {
      throw new CoordinatorError(
        this.#connection.url,
        `it holds a malformed entry under ${key}`,
      );
    }
    const now = Date.now();
    const expiresAt = direct || leftMs < 0
      ? Infinity
      : expiryLeaving(leftMs, now);
    return { url, direct, resolvedAt: now, expiresAt };
  }

  async #fileKeys({ id, format }: ContentKey): Promise<FileKeys> {
    const prefix = await this.#keyPrefix();
    const content = `${id}:${format ?? "archival"}`;
    return {
      url: `${prefix}:url:${content}`,
      resolving: `${prefix}:resolving:${content}`,
    };
  }

  /** `repo-fs:{H}`, `H` a hash of the repository's API base. */
  #keyPrefix(): Promise<string> {
    this.#prefix ??= crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(this.#repository),
    ).then((hash) =>
      `repo-fs:{${
        [...new Uint8Array(hash).slice(0, 16)]
          .map((byte) => byte.toString(16).padStart(2, "0")).join("")
      }}`
    );
    return this.#prefix;
  }
}

/**
 * How long the fleet may hand `url` out, in ms: until it nears expiry (when
 * {@linkcode isStale} would drop it), or an hour when it shows no expiry.
 */
function timeToLive(url: ResolvedUrl): number {
  if (url.expiresAt === Infinity) return UNSIGNED_TTL_MS;
  return usableUntil(url.expiresAt, url.expiresAt - url.resolvedAt) -
    Date.now();
}

/** Growing pauses with jitter, from {@linkcode POLL_MS}.first to .most. */
function pauses(): () => number {
  let next = POLL_MS.first;
  return () => {
    const pause = next * (0.5 + Math.random() / 2);
    next = Math.min(POLL_MS.most, next * 1.5);
    return pause;
  };
}

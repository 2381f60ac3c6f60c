/**
 * The plain-object form of a `RepoFs`, for `structuredClone`, `postMessage`
 * and `JSON.stringify`: options (token included), the URL cache, and the
 * listing once built. Connections, semaphores and pending promises are not
 * part of it.
 *
 * @module
 */

import type { CachedUrl } from "./urls/download_urls.ts";
import type { CompactListing } from "./tree/routing_table.ts";
import type { RetryOptions, TabularView } from "./base/types.ts";

/**
 * The storage options in plain form.
 *
 * @example
 * ```ts
 * import { RepoFs, type SerializedOptions } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const fs = new RepoFs({ host: "repo.example.org", pid: "https://doi.org/10.5072/FK2/ABC" });
 * const options: SerializedOptions = fs.serialize().options;
 * strictEqual(options.pid, "doi:10.5072/FK2/ABC"); // in normal form
 * strictEqual(options.version, ":latest");
 * strictEqual(options.headConcurrency, 3);
 * ```
 */
export interface SerializedOptions {
  /** `host` as given. */
  host: string;
  /** Persistent id, in normal form. */
  pid: string;
  /** Dataset version. */
  version: string;
  /** HEAD limit. */
  headConcurrency: number;
  /** GET limit, if any. */
  getConcurrency?: number;
  /** API token, if any. Treat the serialised form as a secret. */
  token?: string;
  /** The header that carries the token; `X-Repo-key` when absent. */
  tokenHeader?: string;
  /** The query parameter of the token where redirects are hidden, if any. */
  tokenQuery?: string;
  /** The collections path; `repos` when absent. */
  collectionsPath?: string;
  /** Longest silence of a request, in milliseconds. */
  timeoutMs: number;
  /** Retry policy. */
  retry: RetryOptions;
  /** How ingested tabular files appear; `"archival"` when absent. */
  tabular?: TabularView;
  /** The most bytes read of a body whose length nothing says; 64 GiB when absent. */
  maxBytes?: number;
}

/**
 * A `RepoFs` in plain form; see `RepoFs.serialize()`. Only `options` is
 * meant to be read; `urls` and `listing` are in a form of this version's
 * own, to be handed back to `RepoFs.fromSerialized`.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type SerializedRepoFs } from "@x/repo-fs";
 * import { strictEqual } from "node:assert/strict";
 * const fs = new RepoFs({ host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" });
 * const plain: SerializedRepoFs = JSON.parse(JSON.stringify(fs.serialize()));
 * strictEqual(RepoFs.fromSerialized(plain).pid, "doi:10.5072/FK2/ABC");
 * ```
 */
export interface SerializedRepoFs {
  /** Format tag. */
  format: "repo-fs/1";
  /** Storage options. */
  options: SerializedOptions;
  /** Resolved content URLs. */
  urls: readonly unknown[];
  /** The listing, once built. */
  listing?: unknown;
}

/** {@linkcode SerializedRepoFs} as this version writes and reads it. */
export interface SerializedForm extends SerializedRepoFs {
  /** Resolved content URLs: `[fileId, url, direct, format?]`. */
  urls: CachedUrl[];
  /** The listing, once built. */
  listing?: CompactListing;
}

/**
 * Checks that a value is a serialised `RepoFs` of a format this version
 * reads; a `TypeError` says what is off.
 */
export function checkSerialized(
  value: unknown,
): asserts value is SerializedForm {
  const s = value as Partial<SerializedForm> | null;
  if (s?.format !== "repo-fs/1") {
    throw new TypeError(
      `Not a serialised RepoFs (format ${JSON.stringify(s?.format)})`,
    );
  }
  if (typeof s.options !== "object" || !Array.isArray(s.urls)) {
    throw new TypeError("A serialised RepoFs needs options and urls");
  }
  const listing = s.listing;
  if (listing !== undefined && listing !== null) {
    const n = listing.paths?.length;
    const columns = [
      listing.ids,
      listing.sizes,
      listing.contentTypeIndex,
      listing.checksumTypeIndex,
      listing.checksums,
    ];
    const lists = [
      listing.tabular,
      listing.originals,
      listing.restricted,
      listing.embargoes,
    ];
    if (
      !Array.isArray(listing.paths) || columns.some((c) => c?.length !== n) ||
      !lists.every(Array.isArray)
    ) {
      throw new TypeError("A serialised RepoFs has a malformed listing");
    }
  }
}

/**
 * `RepoFs`: one dataset of a repository as a read-only, path-addressed file
 * tree. It wires the listing, the routing table, the download URL cache and
 * the content reader together.
 *
 * @module
 */

import { abortable } from "./base/abort_callbacks.ts";
import { ContentReader } from "./content/content.ts";
import type { ContentFile } from "./content/content_file.ts";
import { SameObject } from "./content/same_object.ts";
import { type FileMetadata, MetadataLru } from "./content/file_metadata.ts";
import { DownloadUrls, type UrlResolver } from "./urls/download_urls.ts";
import { FileLister } from "./api/file_lister.ts";
import { normalizePath } from "./tree/paths.ts";
import { entryIn, ReadOnlyTree } from "./tree/read_only_tree.ts";
import { normalizePid } from "./api/pid.ts";
import { RepoApi } from "./api/repo_api.ts";
import { resolveDatasetUrl } from "./api/dataset_url.ts";
import { RetryPolicy } from "./api/retry.ts";
import { redactingLogger } from "./base/secrets.ts";
import { UrlCacheFile } from "./urls/url_cache_file.ts";
import { type RejectedEntry, RoutingTable } from "./tree/routing_table.ts";
import {
  checkSerialized,
  type SerializedOptions,
  type SerializedRepoFs,
} from "./serialize.ts";
import type { Logger, RepoFsOptions, UrlCoordinator } from "./base/types.ts";
import { type ReadOptions, type RepoFile, repoFile } from "./repo_file.ts";
import type {
  Downloaded,
  DownloadToFileOptions,
} from "./download/file_download.ts";

export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_GET_CONCURRENCY = 256;

/** Tables shared by instances created with the same storage options. */
const sharedTables = new Map<string, Promise<RoutingTable>>();

/**
 * What a rebuilt instance takes that cannot be serialised.
 *
 * @example
 * ```ts
 * import { type Logger, RepoFs, type RestoreOptions } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { ok } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const plain = new RepoFs({ host: emu.host, pid: emu.pid }).serialize();
 * // A logger cannot be serialised: the rebuilt instance is given one.
 * const lines: string[] = [];
 * const logger: Logger = { debug: (l) => lines.push(l), info: (l) => lines.push(l), warn: (l) => lines.push(l) };
 * const restore: RestoreOptions = { logger };
 * await RepoFs.fromSerialized(plain, restore).catFile("a.txt");
 * ok(lines.some((line) => line.startsWith("HEAD file")));
 * ```
 */
export interface RestoreOptions {
  /** Where log lines go. */
  logger?: Logger;
  /** Transport. */
  fetch?: typeof fetch;
  /** The fleet's coordinator (a live object, so not part of the plain form). */
  coordinator?: UrlCoordinator;
}

/** The option key under which a pool's worker hands its instance the main thread's URLs. */
const SHARED_URLS = Symbol("shared content URLs");

/** The key of a `RepoFs`'s {@linkcode RepoFsInternals}. */
export const INTERNALS = Symbol("what a pool uses of its RepoFs");

/** What a pool and its workers use of a `RepoFs` beyond its public verbs. */
export interface RepoFsInternals {
  /**
   * Where it gets content URLs: a pool's main thread answers its workers'
   * asks through it.
   */
  readonly urls: UrlResolver;
  /** Its routing table, built on first use: the tree its pool shows. */
  routingTable(): Promise<RoutingTable>;
  /**
   * `catFile(path, options)` with every answer held to `object`: how a
   * pool's worker reads for a handle whose object the main thread pinned.
   */
  read(
    path: string,
    options: ReadOptions,
    object: SameObject,
  ): Promise<Uint8Array>;
}

/**
 * A `RepoFs` rebuilt from `serialized` that takes every content URL from
 * `urls` instead of sending HEADs of its own: how a pool's workers share
 * their main thread's URL cache and HEAD budget.
 */
export function sharingUrls(
  serialized: SerializedRepoFs,
  urls: UrlResolver,
): RepoFs {
  const restore: RestoreOptions & { [SHARED_URLS]: UrlResolver } = {
    [SHARED_URLS]: urls,
  };
  return RepoFs.fromSerialized(serialized, restore);
}

/**
 * One dataset as a read-only file tree. The tree verbs (`ls`, `info`,
 * `exists`, `find`, `glob`, `isDir`, `isFile`, `du`, `walk`, `cat`,
 * `catRanges`) are those of {@linkcode ReadOnlyTree}, over its listing.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: {
 *     "climate.zarr/.zgroup": '{"zarr_format":2}',
 *     "climate.zarr/temperature/.zarray": "{}",
 *   },
 * });
 *
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual(
 *   (await fs.ls("climate.zarr")).map(({ name, type }) => [name, type]),
 *   [["climate.zarr/.zgroup", "file"], ["climate.zarr/temperature", "directory"]],
 * );
 * const bytes = await fs.catFile("climate.zarr/.zgroup");
 * strictEqual(new TextDecoder().decode(bytes), '{"zarr_format":2}');
 * ```
 */
export class RepoFs extends ReadOnlyTree {
  /** The `host` option as given. */
  readonly host: string;
  /** The dataset's persistent id in normal form: `doi:…`, `hdl:…` or `perma:…`. */
  readonly pid: string;
  /** The dataset version read. */
  readonly version: string;
  /** Most simultaneous HEADs to the repository. */
  readonly headConcurrency: number;
  /** Most simultaneous buffered content reads. */
  readonly getConcurrency: number;
  /**
   * The parsed metadata of its files that format readers keep (an HDF5
   * file's objects and chunk index, a NetCDF header, a Parquet footer, a
   * zip central directory): read once per file for the instance's life,
   * read again after the file changed, at most 64 MiB of it.
   */
  readonly metadata: FileMetadata;
  /**
   * What its pool and the pool's workers use of it.
   * @ignore
   */
  readonly [INTERNALS]: RepoFsInternals;
  readonly #options: SerializedOptions;
  readonly #api: RepoApi;
  readonly #lister: FileLister;
  readonly #urls: UrlResolver;
  readonly #cache?: DownloadUrls;
  readonly #content: ContentReader;
  readonly #logger?: Logger;
  readonly #retry: RetryPolicy;
  #table?: Promise<RoutingTable>;
  #builtTable?: RoutingTable;

  /**
   * Checks the storage options; nothing is fetched until the first call.
   * @param options the storage options; see {@linkcode RepoFsOptions}
   */
  constructor(options: RepoFsOptions) {
    super();
    const {
      host,
      pid,
      headConcurrency = 3,
      getConcurrency = DEFAULT_GET_CONCURRENCY,
      token,
      version = ":latest",
      timeoutMs = DEFAULT_TIMEOUT_MS,
      tabular = "archival",
      urlCacheDir,
      coordinator,
      maxBytes,
    } = options ?? {};
    const normalPid = normalizePid(pid);
    positiveInteger("headConcurrency", headConcurrency);
    positiveInteger("getConcurrency", getConcurrency);
    if (maxBytes !== undefined) positiveInteger("maxBytes", maxBytes);
    if (typeof version !== "string" || version === "") {
      throw new TypeError(`version must be a non-empty string`);
    }
    if (!(timeoutMs > 0)) {
      throw new TypeError(`timeoutMs must be a number > 0, got ${timeoutMs}`);
    }
    if (token !== undefined && (typeof token !== "string" || token === "")) {
      throw new TypeError("token must be a non-empty string when given");
    }
    if (
      coordinator !== undefined && typeof coordinator?.share !== "function"
    ) {
      throw new TypeError(
        `coordinator must be what redisCoordinator(url) of @x/repo-fs/fleet returns, got ${
          JSON.stringify(coordinator)
        }`,
      );
    }
    if (tabular !== "archival" && tabular !== "original") {
      throw new TypeError(
        `tabular must be "archival" or "original", got ${
          JSON.stringify(tabular)
        }`,
      );
    }
    this.#logger = options.logger && redactingLogger(options.logger);
    const retry = new RetryPolicy(options.retry, this.#logger);
    this.#retry = retry;
    this.#api = RepoApi.connect({ ...options, timeoutMs, retry });
    this.host = host;
    this.pid = normalPid;
    this.version = version;
    this.headConcurrency = headConcurrency;
    this.getConcurrency = getConcurrency;
    this.#options = {
      host,
      pid: normalPid,
      ...this.#api.names,
      version,
      headConcurrency,
      getConcurrency,
      token,
      timeoutMs,
      retry: retry.toJSON(),
      tabular,
      ...(maxBytes === undefined ? {} : { maxBytes }),
    };
    this.#lister = new FileLister(this.#api, this.#logger);
    const shared = (options as { [SHARED_URLS]?: UrlResolver })[SHARED_URLS];
    if (shared === undefined) {
      const scope = { repository: this.#api.base, pid: normalPid, version };
      this.#cache = new DownloadUrls(
        (file, _stale, signal) => this.#api.head(file.id, signal, file.format),
        headConcurrency,
        this.#logger,
        urlCacheDir === undefined
          ? undefined
          : new UrlCacheFile(urlCacheDir, scope, this.#logger),
        coordinator?.share(this.#api.base, headConcurrency, this.#logger),
      );
    }
    this.#urls = shared ?? this.#cache!;
    this.#content = new ContentReader(this.#urls, {
      transport: this.#api.transport,
      retry,
      repository: this.#api.base,
      token,
      tokenHeader: this.#api.names.tokenHeader,
      getConcurrency,
      maxBytes,
    });
    this[INTERNALS] = {
      urls: this.#urls,
      routingTable: () => this.routingTable(),
      read: (path, options, object) => this.#read(path, options, object),
    };
    this.metadata = new MetadataLru(async (path, object) => {
      const { file } = await this.#lookupFile(path);
      return {
        identity: `${file.id} ${file.format ?? ""}`,
        read: (start, end, signal) =>
          this.#content.read(file, start, end, signal, object),
      };
    });
  }

  /**
   * A dataset from a URL as users paste it: the dataset page
   * (`…/dataset.xhtml?persistentId=…[&version=…]`, with `;jsessionid=…`
   * or the page's search parameters too; an empty `version` is the latest),
   * the citation page (`…/citation?persistentId=…`), the API URL
   * (`…/api/datasets/:persistentId/?persistentId=…`), a file page
   * (`…/file.xhtml?persistentId=…` or `?fileId=…`: the dataset holding
   * that file, asked of the repository), or a DOI or Handle
   * (`https://doi.org/10.…`, `doi:10.…`, `https://hdl.handle.net/…`,
   * `hdl:…`), sent to its resolver (`options.resolver`, default
   * `https://doi.org` or `https://hdl.handle.net`) without the token, whose
   * redirect names the page. The URL's scheme, port and version are kept;
   * `options.version` wins over the URL's.
   *
   * @example
   * ```ts
   * import { RepoFs } from "@x/repo-fs";
   * import { startEmulator } from "@x/repo-fs/emulator";
   * import { strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
   * const fs = await RepoFs.fromUrl(
   *   `${emu.host}/dataset.xhtml?persistentId=${emu.pid}`,
   * );
   * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
   * ```
   *
   * @param url the dataset's (or one of its files') URL, DOI or Handle
   * @param options as the constructor's, without `host` and `pid`, and
   * `resolver`: the origin DOIs and Handles are resolved at
   */
  static async fromUrl(
    url: string,
    options: Omit<RepoFsOptions, "host" | "pid"> & { resolver?: string } = {},
  ): Promise<RepoFs> {
    const { resolver, ...rest } = options;
    const { host, pid, version } = await resolveDatasetUrl(url, {
      ...rest,
      resolver,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: new RetryPolicy(options.retry),
    });
    return new RepoFs({
      ...rest,
      host,
      pid,
      version: options.version ?? version,
    });
  }

  /**
   * A working instance from {@linkcode RepoFs.serialize}'s output: no new
   * listing request when the listing was included, no HEAD for cached URLs.
   *
   * @example
   * ```ts
   * import { RepoFs } from "@x/repo-fs";
   * import { startEmulator } from "@x/repo-fs/emulator";
   * import { strictEqual } from "node:assert/strict";
   * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
   * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
   * await fs.catFile("a.txt"); // one listing request, one HEAD
   *
   * const copy = RepoFs.fromSerialized(structuredClone(fs.serialize()));
   * strictEqual(new TextDecoder().decode(await copy.catFile("a.txt")), "hello");
   * strictEqual(emu.counters.listingCalls, 1);
   * strictEqual(emu.counters.heads, 1);
   * ```
   */
  static fromSerialized(
    serialized: SerializedRepoFs,
    restore: RestoreOptions = {},
  ): RepoFs {
    checkSerialized(serialized);
    const fs = new RepoFs({ ...serialized.options, ...restore });
    fs.#cache?.load(serialized.urls);
    if (serialized.listing) {
      fs.#builtTable = RoutingTable.fromCompact(serialized.listing);
      fs.#table = Promise.resolve(fs.#builtTable);
    }
    return fs;
  }

  /**
   * The plain-object form (structured-clone and JSON safe): options with the
   * token, the URL cache, and the listing once built.
   */
  serialize(): SerializedRepoFs {
    return {
      format: "repo-fs/1",
      options: { ...this.#options },
      urls: this.#cache?.entries() ?? [],
      listing: this.#builtTable?.toCompact(),
    };
  }

  /**
   * The bytes of a file, or of `start`..`end` (end exclusive, negatives
   * from the end). A full read returns every byte the server sends.
   */
  catFile(path: string, options: ReadOptions = {}): Promise<Uint8Array> {
    return this.#read(path, options, new SameObject());
  }

  /** As {@linkcode RepoFs.catFile}, every answer held to `object`. */
  async #read(
    path: string,
    options: ReadOptions,
    object: SameObject,
  ): Promise<Uint8Array> {
    options.signal?.throwIfAborted();
    const { file } = await abortable(this.#lookupFile(path), options.signal);
    return await this.#content.read(
      file,
      options.start,
      options.end,
      options.signal,
      object,
    );
  }

  /**
   * An open file for random access and streaming. Its reads are all of the
   * object its first answer came from: a later one finding another fails
   * with a `RepoChangedError`.
   */
  async open(path: string): Promise<RepoFile> {
    const { key, entry, file } = await this.#lookupFile(path);
    const content = this.#content;
    const object = new SameObject();
    return repoFile(
      key,
      entry.size,
      ({ start, end, signal }) =>
        content.read(file, start, end, signal, object),
      ({ start, end, signal }) =>
        content.stream(file, { start, end }, signal, object),
    );
  }

  /**
   * Downloads a file to `target`: streamed to a temporary file beside it,
   * checked against the listing (size, and checksum when listed), then
   * renamed into place; missing folders are made; a failure or an abort
   * leaves nothing. With `resume`, a failure or an abort keeps the partial
   * file (and a record of the object) for the next `resume` to go on from;
   * with `keepIfAborted`, only an abort does.
   * `target` must be a path the caller has checked is safe to write.
   */
  async downloadToFile(
    path: string,
    target: string,
    options: DownloadToFileOptions = {},
  ): Promise<Downloaded> {
    options.signal?.throwIfAborted();
    if (options.resume === true || options.keepIfAborted === true) {
      return await this.#resume(path, target, options);
    }
    const [download, entry, opened] = await Promise.all([
      import("./download/file_download.ts"),
      this.info(path),
      this.open(path),
    ]);
    return await download.downloadToFile(opened, entry, target, options);
  }

  /** `downloadToFile` with `resume` or `keepIfAborted`: see `resume_download.ts`. */
  async #resume(
    path: string,
    target: string,
    options: DownloadToFileOptions,
  ): Promise<Downloaded> {
    const [{ resumeToFile }, { entry, file }] = await Promise.all([
      import("./download/resume_download.ts"),
      this.#lookupFile(path),
    ]);
    const content = this.#content;
    return await resumeToFile(
      (start, validators, signal) => {
        // Going on from kept bytes, another object must come whole, not be refused.
        const ifRange = validators !== undefined;
        const object = new SameObject(validators, { ifRange });
        return {
          stream: content.stream(file, { start }, signal, object),
          validators: () => object.pinned,
        };
      },
      entry,
      target,
      options,
    );
  }

  /**
   * The cached content URL of a file id (one HEAD per id and format per
   * instance); with `format` `"original"`, of an ingested tabular file's
   * original upload (what an entry with `format: "original"` is read from).
   */
  async resolveDownloadUrl(
    fileId: number,
    format?: "original",
  ): Promise<string> {
    if (!Number.isSafeInteger(fileId)) {
      throw new TypeError(`fileId must be an integer, got ${fileId}`);
    }
    if (format !== undefined && format !== "original") {
      throw new TypeError(
        `format must be "original" when given, got ${JSON.stringify(format)}`,
      );
    }
    return (await this.#urls.resolve({ id: fileId, format })).url;
  }

  /**
   * Listing entries left out of the tree (names with `..`, clashes), with
   * the reason; the tree itself stays usable.
   */
  async rejectedEntries(): Promise<RejectedEntry[]> {
    return [...(await this.routingTable()).rejected];
  }

  /**
   * How many requests this instance has backed off and retried so far:
   * `getArray` narrows its chunk read window when it rises.
   *
   * @ignore
   */
  retries(): number {
    return this.#retry.backoffs;
  }

  /**
   * Drops the routing table, here and for instances sharing it, the
   * content URLs near expiry or of unknown expiry, and the kept metadata.
   */
  refresh(): void {
    this.metadata.forget();
    this.#cache?.dropDoubtful();
    sharedTables.delete(this.#tableKey());
    this.#table = undefined;
    this.#builtTable = undefined;
  }

  /** The entry of the file `path` and what its content is read as. */
  async #lookupFile(path: string) {
    const key = normalizePath(path);
    const entry = entryIn(await this.routingTable(), key, "file");
    const file: ContentFile = {
      id: entry.id!,
      size: entry.size,
      tabular: entry.tabular,
      format: entry.format,
      contentType: entry.contentType,
      restricted: entry.restricted,
      embargoedUntil: entry.embargoedUntil,
    };
    return { key, entry, file };
  }

  /**
   * The table, shared with the instances of the same storage options.
   * @ignore
   */
  protected routingTable(): Promise<RoutingTable> {
    if (this.#table) return this.#table;
    const tableKey = this.#tableKey();
    let shared = sharedTables.get(tableKey);
    if (shared === undefined) {
      shared = this.#buildTable();
      sharedTables.set(tableKey, shared);
      shared.catch(() => {
        if (sharedTables.get(tableKey) === shared) {
          sharedTables.delete(tableKey);
        }
      });
    }
    // The URL cache file is read beside the listing, so that what is
    // serialised once the listing is in (a pool's workers) holds its URLs.
    const urlsRead = this.#cache?.readStore();
    const mine = Promise.all([shared, urlsRead]).then(([table]) =>
      this.#builtTable = table
    );
    mine.catch(() => {
      if (this.#table === mine) this.#table = undefined;
    });
    this.#table = mine;
    return mine;
  }

  async #buildTable(): Promise<RoutingTable> {
    const table = await this.#lister.list(
      this.pid,
      this.version,
      () => RoutingTable.builder(this.#logger, this.#options.tabular),
    );
    this.#logger?.info(
      `Routing table of ${this.pid} built: ${table.fileCount} files, ${table.directoryCount} directories`,
    );
    return table;
  }

  #tableKey(): string {
    const { token = "", tokenHeader, version, tabular } = this.#options;
    return JSON.stringify([
      this.#api.base,
      this.pid,
      version,
      token,
      tokenHeader,
      tabular,
    ]);
  }
}

/**
 * The items of a collection (endpoint 1, `/api/{collectionsPath}/{alias}/contents`),
 * as the repository sends them.
 *
 * @example
 * ```ts
 * import { listCollection } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * // A Dataverse-style collection "climate" holding one dataset.
 * await using emu = await startEmulator({
 *   alias: "climate",
 *   collectionsPath: "dataverses",
 * });
 *
 * const items = await listCollection({
 *   host: emu.host,
 *   alias: "climate",
 *   collectionsPath: "dataverses",
 * });
 * const types = items.map((item) => (item as { type: string }).type);
 * deepStrictEqual(types, ["dataset"]);
 * ```
 */
export async function listCollection(options: {
  host: string;
  alias: string;
  token?: string;
  /** The header that carries the token; default `X-Repo-key`. */
  tokenHeader?: string;
  /** Collections are at `/api/{collectionsPath}/`; default `repos`. */
  collectionsPath?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<unknown[]> {
  const { alias, timeoutMs = DEFAULT_TIMEOUT_MS } = options;
  if (typeof alias !== "string" || alias === "") {
    throw new TypeError(`alias must be a non-empty string`);
  }
  const api = RepoApi.connect({ ...options, timeoutMs });
  return await api.listCollection(alias, options.signal);
}

function positiveInteger(name: string, value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 1) {
    throw new TypeError(`${name} must be an integer >= 1, got ${value}`);
  }
}

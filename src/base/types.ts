/**
 * Shapes shared by the modules of repo-fs.
 *
 * @module
 */

/**
 * One entry of the routing table, as `ls` and `info` return it.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "data/a.csv": "x,y\n" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const file = await fs.info("data/a.csv");
 * strictEqual(file.type, "file");
 * strictEqual(file.size, 4);
 * strictEqual(file.id, emu.fileId("data/a.csv"));
 * strictEqual((await fs.info("data")).type, "directory");
 * ```
 */
export interface FileInfo {
  /** Full path from the dataset root; `""` for the root. */
  name: string;
  /** Whether the path is a file or a (possibly synthetic) directory. */
  type: "file" | "directory";
  /** Bytes; `0` for directories, `null` for a file the listing gave no size. */
  size: number | null;
  /** The repository's file id (files only). */
  id?: number;
  /** Media type from the listing (files only). */
  contentType?: string;
  /** MD5 from the listing: present when the listed checksum is an MD5 (files only). */
  md5?: string;
  /**
   * The listed checksum (`dataFile.checksum`), its type as the repository
   * names it: `MD5`, `SHA-1`, `SHA-256` or `SHA-512` (files only).
   */
  checksum?: Checksum;
  /**
   * `true` for an ingested tabular file (the listing has `tabularData` or
   * `originalFileFormat`) read in its archival form: it is served longer
   * than listed, and its listed checksum is of the original upload.
   */
  tabular?: boolean;
  /**
   * `"original"` for an ingested tabular file shown as the original upload
   * (option `tabular: "original"`): name, size, media type and checksum are
   * the original's, and it is read with `format=original`.
   */
  format?: "original";
  /**
   * `true` for a file the listing marks restricted or embargoed: reading it
   * needs an API token that was granted access.
   */
  restricted?: boolean;
  /** A zip member's comment (from its Unicode Comment field where that holds). */
  comment?: string;
  /** The day an embargoed file becomes readable (`YYYY-MM-DD`), while it is embargoed. */
  embargoedUntil?: string;
}

/**
 * A checksum as the listing gives it.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.txt": { content: "abc", checksumType: "SHA-1" } },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * deepStrictEqual((await fs.info("a.txt")).checksum, {
 *   type: "SHA-1",
 *   value: "a9993e364706816aba3e25717850c26c9cd0d89d",
 * });
 * ```
 */
export interface Checksum {
  /** The algorithm as the repository names it: `MD5`, `SHA-1`, `SHA-256`, `SHA-512`. */
  type: string;
  /** The digest in hex. */
  value: string;
}

/**
 * How ingested tabular files appear: `"archival"` as listed (the archival
 * `.tab` form, served longer than listed), `"original"` as the uploaded
 * original (`originalFileName`, `originalFileSize`, read with
 * `format=original`).
 *
 * @example
 * ```ts
 * import { RepoFs, type TabularView } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "obs.tab": { content: "t\n1.5\n", tabular: true, original: "t\r\n1.5\r\n" } },
 * });
 * const tabular: TabularView = "original";
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, tabular });
 * deepStrictEqual(await fs.find(""), ["obs.csv"]);
 * strictEqual(new TextDecoder().decode(await fs.catFile("obs.csv")), "t\r\n1.5\r\n");
 * ```
 */
export type TabularView = "archival" | "original";

/**
 * Where log lines go. `console` fits, and so does an `@std/log` Logger.
 *
 * @example
 * ```ts
 * import { type Logger, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { match } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const lines: string[] = [];
 * const logger: Logger = {
 *   debug: (line) => lines.push(line),
 *   info: (line) => lines.push(line),
 *   warn: (line) => lines.push(line),
 * };
 * await new RepoFs({ host: emu.host, pid: emu.pid, logger }).catFile("a.txt");
 * match(lines[0], /^Routing table of doi:10.5072\/FK2\/EMULATED built: 1 files/);
 * ```
 */
export interface Logger {
  /** Per-request detail such as HEAD timings. */
  debug(msg: string): void;
  /** Milestones such as the routing table being built. */
  info(msg: string): void;
  /** Something odd in the data that was worked around. */
  warn(msg: string): void;
}

/**
 * How failed requests are retried: 429, 500, 502, 503, 504, dropped connections
 * and truncated bodies, with exponential backoff and full jitter.
 *
 * @example
 * ```ts
 * import { RepoFs, type RetryOptions } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.txt": "hello" },
 *   faults: { rules: [{ route: "head", status: 503, times: 2 }] },
 * });
 * const retry: RetryOptions = { retries: 2, baseDelayMs: 1, maxDelayMs: 10 };
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry });
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
 * strictEqual(emu.counters.heads, 3); // two 503s, then the answer
 * ```
 */
export interface RetryOptions {
  /** Attempts after the first one. Default 5. */
  retries?: number;
  /** First backoff step in milliseconds. Default 250. */
  baseDelayMs?: number;
  /** Longest wait between attempts, `Retry-After` included. Default 30000. */
  maxDelayMs?: number;
}

/**
 * Options of `new RepoFs(options)`: the storage options of the dataset.
 *
 * @example
 * ```ts
 * import { RepoFs, type RepoFsOptions } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.txt": "new" },
 *   versions: { "1.0": { "a.txt": "old" } },
 * });
 * const options: RepoFsOptions = { host: emu.host, pid: emu.pid, version: "1.0" };
 * const fs = new RepoFs(options);
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "old");
 * ```
 */
export interface RepoFsOptions {
  /** `repo.example.org` (https) or a base with a scheme, `http://127.0.0.1:8080`. */
  host: string;
  /**
   * The dataset's persistent id: `doi:<authority>/<identifier>` (also
   * `DOI:…`, a bare `10.…/…`, `https://doi.org/…`), `hdl:<prefix>/<suffix>`
   * (also `https://hdl.handle.net/…`) or `perma:<identifier>`; sent in the
   * normal form `doi:` / `hdl:` / `perma:`.
   */
  pid: string;
  /** Most simultaneous HEAD requests to the repository. Default 3. */
  headConcurrency?: number;
  /**
   * Most simultaneous buffered content reads (`catFile`, `RepoFile.read`,
   * chunk reads); streams are not counted. Default 256: the most chunk reads
   * a `getArray` window keeps in flight, few enough that `Promise.all` over
   * 10,000 reads does not run out of sockets. A `RepoFsPool` shares it out
   * among its workers.
   */
  getConcurrency?: number;
  /** API token, sent in `tokenHeader` to the repository only. */
  token?: string;
  /** The header that carries the token to the repository. Default `X-Repo-key`. */
  tokenHeader?: string;
  /**
   * Where `fetch` hides redirects (a browser's), the query parameter that
   * carries the token to the file-access endpoint instead, so that its
   * redirect to the store can be followed without the token: Dataverse
   * reads `key`. Unset, a browser with a token reads only from a repository
   * that serves file bytes itself. Elsewhere it changes nothing.
   */
  tokenQuery?: string;
  /** Collections are at `/api/{collectionsPath}/{alias}/contents`. Default `repos`. */
  collectionsPath?: string;
  /** Dataset version: `:latest` (default), `:latest-published`, `:draft` or a number like `1.0`. */
  version?: string;
  /** Where log lines go; silent when absent. */
  logger?: Logger;
  /** Transport; `globalThis.fetch` when absent. */
  fetch?: typeof fetch;
  /**
   * Longest wait of a request without progress, in milliseconds: no
   * answer, or less than 1 KiB of body, for this long ends the attempt (and
   * it is retried). Time between a reader's reads does not count. Default
   * 60000.
   */
  timeoutMs?: number;
  /** Retry policy for transient failures. */
  retry?: RetryOptions;
  /** How ingested tabular files appear; default `"archival"`. */
  tabular?: TabularView;
  /**
   * A directory where resolved content URLs are kept (one file per
   * repository, dataset and version, mode 0600: the URLs are credentials
   * while they last), so that later processes reuse them until they near
   * expiry instead of sending a HEAD each. Created (mode 0700) if missing.
   * Not for browsers: there it is a `TypeError`.
   */
  urlCacheDir?: string;
  /**
   * A fleet's coordinator, such as `redisCoordinator("redis://host:port")`
   * from `@x/repo-fs/fleet`: every process given the same coordinator and
   * repository shares one HEAD budget (at most `headConcurrency` HEADs in
   * flight across them all; give them the same `headConcurrency`) and one
   * URL cache (each file's URL resolved once while it is valid). When the
   * coordinator cannot be reached, reads that need a URL fail (a
   * `CoordinatorError`) instead of sending HEADs of their own.
   */
  coordinator?: UrlCoordinator;
  /**
   * The most bytes read of a file when neither the listing (no size, or an
   * ingested tabular file's lower bound) nor the answer (`Content-Length`)
   * says how long it is: a body going on past it fails the read with an
   * error naming `maxBytes`. Default 64 GiB.
   */
  maxBytes?: number;
}

/**
 * Which content a URL serves: file `id` as stored, or with `format:
 * "original"` the original upload of an ingested tabular file. The two
 * have different URLs, cached apart.
 *
 * @example
 * ```ts
 * import { type ContentKey, RepoFs, type UrlCoordinator } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const asked: ContentKey[] = [];
 * const coordinator: UrlCoordinator = {
 *   share: () => ({
 *     resolve: (file, _stale, signal, head) => (asked.push(file), head(signal)),
 *   }),
 * };
 * await new RepoFs({ host: emu.host, pid: emu.pid, coordinator }).catFile("a.txt");
 * deepStrictEqual(asked, [{ id: emu.fileId("a.txt") }]);
 * ```
 */
export interface ContentKey {
  /** The repository's file id. */
  id: number;
  /** `"original"`: the original upload of an ingested tabular file. */
  format?: "original";
}

/**
 * A content URL with what is known about it.
 *
 * @example
 * ```ts
 * import { RepoFs, type ResolvedUrl, type UrlCoordinator } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { ok, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const resolved: ResolvedUrl[] = [];
 * const coordinator: UrlCoordinator = {
 *   share: () => ({
 *     resolve: async (_file, _stale, signal, head) => {
 *       resolved.push(await head(signal));
 *       return resolved[0];
 *     },
 *   }),
 * };
 * await new RepoFs({ host: emu.host, pid: emu.pid, coordinator }).catFile("a.txt");
 * const [{ url, direct, resolvedAt, expiresAt }] = resolved;
 * ok(url.startsWith(emu.storeOrigin)); // a signed object-store URL
 * strictEqual(direct, false);
 * ok(resolvedAt < expiresAt && expiresAt < Infinity); // signed: it runs out
 * ```
 */
export interface ResolvedUrl {
  /** Where to read content from. */
  url: string;
  /** True when `url` is the repository's own access endpoint (needs the token). */
  direct: boolean;
  /** When it was resolved, epoch ms. */
  resolvedAt: number;
  /**
   * When its signature runs out by this machine's clock, epoch ms
   * (`Infinity` when unsigned, or when its expiry is not understood: it is
   * then used until the store refuses it).
   */
  expiresAt: number;
}

/**
 * One repository's share of a coordinator: a URL cache and a HEAD budget
 * shared with other processes. A `RepoFs` hands it every lookup it would
 * send; it answers from the fleet's cache, or calls `head` (which sends the
 * HEAD within this process's own budget) once it holds one of the fleet's
 * places. It never answers from anything else: when it cannot reach the
 * fleet, it rejects.
 *
 * @example
 * ```ts
 * import { RepoFs, type ResolvedUrl, type SharedUrls } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * // A fleet's URL cache, here in memory: the second instance sends no HEAD.
 * const cache = new Map<number, ResolvedUrl>();
 * const fleet: SharedUrls = {
 *   async resolve(file, _stale, signal, head) {
 *     if (!cache.has(file.id)) cache.set(file.id, await head(signal));
 *     return cache.get(file.id)!;
 *   },
 * };
 * for (const _ of [1, 2]) {
 *   const fs = new RepoFs({ host: emu.host, pid: emu.pid, coordinator: { share: () => fleet } });
 *   strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
 * }
 * strictEqual(emu.counters.heads, 1);
 * ```
 */
export interface SharedUrls {
  /**
   * The URL of `file` as the fleet knows it, or from `head` when no
   * process has it (or only `stale`). Aborting `signal` withdraws the ask.
   */
  resolve(
    file: ContentKey,
    stale: string | undefined,
    signal: AbortSignal,
    head: (signal: AbortSignal) => Promise<ResolvedUrl>,
  ): Promise<ResolvedUrl>;
}

/**
 * What `RepoFs`'s `coordinator` option takes: `redisCoordinator(url)` from
 * `@x/repo-fs/fleet`, or another fleet-wide store of URLs and HEAD places.
 *
 * @example
 * ```ts
 * import { RepoFs, type UrlCoordinator } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello" } });
 * const shares: string[] = [];
 * const alone: UrlCoordinator = {
 *   share(repository) {
 *     shares.push(repository);
 *     return { resolve: (_file, _stale, signal, head) => head(signal) };
 *   },
 * };
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid, coordinator: alone });
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
 * strictEqual(shares.length, 1);
 * ```
 */
export interface UrlCoordinator {
  /**
   * The share of the repository at API base `repository`, for one
   * `RepoFs`: a HEAD budget of `places` across the fleet.
   */
  share(repository: string, places: number, logger?: Logger): SharedUrls;
}

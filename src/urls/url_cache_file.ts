/**
 * Resolved content URLs on disk, for the processes that read one version of
 * one dataset of one repository: the file behind the `urlCacheDir` option.
 *
 * The URLs are pre-signed credentials for their lifetime (some were resolved
 * with a token), so the file is private (mode 0600, its directory created
 * 0700) and a file others may read or write is not trusted. It holds no
 * token: a URL that contains one is not kept. Writes are atomic (a private
 * temporary file renamed over the old one) and merge with what other
 * processes wrote meanwhile; writers of one file take turns (a lock file
 * beside it, see `src/base/file_lock.ts`), so concurrent writers leave a whole file
 * that holds every entry each of them added.
 *
 * Writing is synchronous because the last write happens as the process
 * exits, `Deno.exit` included, where nothing asynchronous runs. Each write
 * rewrites the whole file, so they are spaced out: the first a second after
 * new URLs arrive, each next one after twice the wait before, up to a
 * minute (on a timer that does not keep the process alive), and the last
 * at exit. A 3-minute cold read of 20,000 files writes it 8 times, not
 * 180.
 *
 * @module
 */

import type { StoredUrl, UrlStore } from "./download_urls.ts";
import type { ContentKey } from "../base/types.ts";
import { cacheKey, isStale } from "./download_urls.ts";
import { urlExpiry } from "./signed_url.ts";
import { errorMessage } from "../base/errors.ts";
import { holdsSecret } from "../base/secrets.ts";
import type { Logger } from "../base/types.ts";
import { withFileLock } from "../base/file_lock.ts";

/** The format tag of the file. */
const FORMAT = "repo-fs-url-cache/1";
/** How long the first new URLs wait to be written with the ones that follow them. */
const WRITE_DELAY_MS = 1_000;
/** The longest wait, reached by doubling it after every timed write. */
const MAX_WRITE_DELAY_MS = 60_000;

/** Whose URLs a cache file holds: its name is a hash of these. */
export interface UrlCacheScope {
  /** The repository's API base, `https://repo.example.org/api`. */
  repository: string;
  /** The dataset's persistent id in normal form. */
  pid: string;
  /** The dataset version. */
  version: string;
}

/** One entry as the file holds it. */
interface FileEntry {
  id: number;
  format?: "original";
  url: string;
  direct: boolean;
  resolvedAt: number;
  /** How far the clock of the answer that carried `url` was ahead of this machine's, when not 0. */
  clockOffsetMs?: number;
}

/** The file's content. */
interface CacheDocument extends UrlCacheScope {
  format: typeof FORMAT;
  urls: FileEntry[];
}

/** The `node:` modules the file needs, loaded at first use. */
interface Io {
  fs: typeof import("node:fs");
  path: typeof import("node:path");
  crypto: typeof import("node:crypto");
  os: typeof import("node:os");
  windows: boolean;
}

/**
 * The URL cache file of one scope in directory `dir`. Nothing is read or
 * written before {@linkcode UrlCacheFile.read}; URLs handed to
 * {@linkcode UrlCacheFile.add} are written a second later (later still
 * after each timed write, up to a minute), by
 * {@linkcode UrlCacheFile.flush}, or when the process exits.
 */
export class UrlCacheFile implements UrlStore {
  /** The file's path, known once {@linkcode UrlCacheFile.read} resolved. */
  path?: string;
  readonly #dir: string;
  readonly #scope: UrlCacheScope;
  readonly #logger?: Logger;
  readonly #unwritten = new Map<string, StoredUrl>();
  /** URLs the store refused: never written, nor read back. */
  readonly #refused = new Set<string>();
  /** Something was added or refused since the last write. */
  #dirty = false;
  /** Its path or a write failed: the file is left alone from then on. */
  #broken = false;
  #warned = false;
  #io?: Io;
  #timer?: ReturnType<typeof setTimeout>;
  #writeDelayMs = WRITE_DELAY_MS;
  #stopWatchingExit?: () => void;

  /**
   * Checks the directory option; touches nothing on disk.
   * @param dir the directory, created with mode 0700 at the first write if missing
   * @param scope whose URLs these are
   * @param logger receives a warning for a file that cannot be used or written
   * @throws {TypeError} when `dir` is not a non-empty string, or this runtime has no file system
   */
  constructor(dir: string, scope: UrlCacheScope, logger?: Logger) {
    if (typeof dir !== "string" || dir === "") {
      throw new TypeError(
        `urlCacheDir must be a non-empty string, got ${JSON.stringify(dir)}`,
      );
    }
    if (!hasFileSystem()) {
      throw new TypeError(
        "urlCacheDir needs a file system (Deno, Node or Bun); this runtime has none",
      );
    }
    this.#dir = dir;
    this.#scope = scope;
    this.#logger = logger;
  }

  /**
   * The URLs in the file that are not near expiry. A missing file reads as
   * empty; a corrupt, foreign or unreadable one as empty too, with a warning.
   */
  async read(): Promise<StoredUrl[]> {
    try {
      const io = await loadIo();
      this.path = io.path.resolve(this.#dir, fileName(io.crypto, this.#scope));
      this.#io = io;
      return this.#readFile();
    } catch (error) {
      this.#broken = true;
      this.#warn(
        `Cannot use the URL cache in ${this.#dir}: ${errorMessage(error)}`,
      );
      return [];
    }
  }

  /**
   * Keeps `entry` to be written. URLs whose expiry cannot be read from
   * them (and that are not the repository's own) and URLs that contain the
   * token are not kept.
   * @throws {Error} before {@linkcode UrlCacheFile.read} has resolved
   */
  add(entry: StoredUrl): void {
    if (this.#broken) return;
    if (this.#io === undefined) {
      throw new Error("UrlCacheFile.add called before read()");
    }
    const { url, direct, expiresAt } = entry.url;
    if ((!direct && expiresAt === Infinity) || holdsSecret(url)) return;
    this.#unwritten.set(cacheKey(entry.file), entry);
    this.#changed();
  }

  /**
   * Drops `url`, which the store refused: it is not read back, and the
   * next write leaves it out of the file.
   */
  forget(file: ContentKey, url: string): void {
    this.#refused.add(url);
    const key = cacheKey(file);
    if (this.#unwritten.get(key)?.url.url === url) this.#unwritten.delete(key);
    if (this.#io !== undefined) this.#changed();
  }

  /** Plans a write: a timed one, and one as the process exits. */
  #changed(): void {
    if (this.#broken) return;
    this.#dirty = true;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#writeDelayMs = Math.min(
          2 * this.#writeDelayMs,
          MAX_WRITE_DELAY_MS,
        );
        this.flush();
      }, this.#writeDelayMs);
      unrefTimer(this.#timer);
    }
    this.#stopWatchingExit ??= onProcessExit(() => this.flush());
  }

  /**
   * Writes the URLs added since the last write, merged with the file as it
   * is now (of two entries for one file, the one that runs out later wins;
   * entries near expiry and refused URLs are dropped). Never throws: a
   * failure is a warning (the first one only), and the file is not written
   * again.
   */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#stopWatchingExit?.();
    this.#stopWatchingExit = undefined;
    if (!this.#dirty || this.#broken) return;
    this.#dirty = false;
    const mine = [...this.#unwritten.values()];
    this.#unwritten.clear();
    const { fs, crypto } = this.#io!;
    const path = this.path!;
    const temporary = `${path}.${crypto.randomUUID()}.tmp`;
    try {
      fs.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      withFileLock(this.#io!, `${path}.lock`, () => {
        fs.writeFileSync(temporary, JSON.stringify(this.#merged(mine)), {
          mode: 0o600,
          flag: "wx",
        });
        fs.renameSync(temporary, path);
      });
    } catch (error) {
      this.#broken = true;
      this.#warn(
        `Cannot write the URL cache file ${path}; reading on without it: ${
          errorMessage(error)
        }`,
      );
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // No temporary file was made where the directory cannot be used.
      }
    }
  }

  /**
   * The file as it is now with `mine` added: of two entries for one file,
   * the one that runs out later; none near expiry, none refused.
   */
  #merged(mine: StoredUrl[]): CacheDocument {
    const merged = new Map<string, StoredUrl>();
    for (const entry of [...this.#readFile(), ...mine]) {
      const key = cacheKey(entry.file);
      const other = merged.get(key)?.url;
      if (!other || runsOutLater(entry, other)) merged.set(key, entry);
    }
    return {
      format: FORMAT,
      ...this.#scope,
      urls: [...merged.values()].filter((entry) =>
        usable(entry) && !this.#refused.has(entry.url.url)
      ).map(fileEntry),
    };
  }

  /** The file's usable entries; `[]` with a warning when it cannot be used. */
  #readFile(): StoredUrl[] {
    const { fs } = this.#io!;
    const path = this.path!;
    let text: string;
    try {
      // Non-blocking: a FIFO planted at the path must not hold the thread.
      const { O_RDONLY, O_NONBLOCK } = fs.constants;
      const fd = fs.openSync(
        path,
        O_NONBLOCK === undefined ? "r" : O_RDONLY | O_NONBLOCK,
      );
      try {
        const stat = fs.fstatSync(fd);
        if (!stat.isFile()) throw new Error("it is not a regular file");
        const { mode } = stat;
        if (!this.#io!.windows && (mode & 0o077) !== 0) {
          throw new Error(
            `its mode is ${
              (mode & 0o777).toString(8)
            }, so others may read or change it`,
          );
        }
        text = fs.readFileSync(fd, "utf8");
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") {
        this.#warn(
          `Ignoring the URL cache file ${path}: ${errorMessage(error)}`,
        );
      }
      return [];
    }
    try {
      return parseDocument(text, this.#scope).filter((entry) =>
        usable(entry) && !this.#refused.has(entry.url.url)
      );
    } catch (error) {
      this.#warn(`Ignoring the URL cache file ${path}: ${errorMessage(error)}`);
      return [];
    }
  }

  /** Warns of the first failure only: one cache that cannot be used is one warning. */
  #warn(text: string): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#logger?.warn(text);
  }
}

/** The entries of a cache file's text; throws saying what is wrong with it. */
function parseDocument(text: string, scope: UrlCacheScope): StoredUrl[] {
  let document: Partial<CacheDocument> | null;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error("it is not JSON");
  }
  if (document?.format !== FORMAT) {
    throw new Error(
      `its format is ${JSON.stringify(document?.format)}, not "${FORMAT}"`,
    );
  }
  for (const field of ["repository", "pid", "version"] as const) {
    if (document[field] !== scope[field]) {
      throw new Error(
        `it is for ${field} ${JSON.stringify(document[field])}, not ${
          JSON.stringify(scope[field])
        }`,
      );
    }
  }
  if (!Array.isArray(document.urls)) throw new Error("it has no urls list");
  return document.urls.map((entry, index) => {
    const stored = storedUrl(entry);
    if (stored === undefined) {
      throw new Error(`its entry ${index} is malformed`);
    }
    return stored;
  });
}

/** A file entry as the cache holds it; `undefined` if it is malformed. */
function storedUrl(entry: Partial<FileEntry>): StoredUrl | undefined {
  const { id, format, url, direct, resolvedAt, clockOffsetMs = 0 } = entry ??
    {};
  if (
    !Number.isSafeInteger(id) ||
    (format !== undefined && format !== "original") ||
    typeof url !== "string" || typeof direct !== "boolean" ||
    !Number.isFinite(resolvedAt) || !Number.isFinite(clockOffsetMs)
  ) {
    return undefined;
  }
  const expiresAt = direct ? Infinity : urlExpiry(url) - clockOffsetMs;
  if (expiresAt === Infinity && !direct) return undefined;
  return {
    file: format === undefined ? { id: id! } : { id: id!, format },
    url: { url, direct, resolvedAt: resolvedAt!, expiresAt },
  };
}

/** Not near expiry, and resolved in the past (a clock set back tells nothing). */
function usable({ url }: StoredUrl): boolean {
  return url.resolvedAt <= Date.now() && !isStale(url);
}

function fileEntry({ file, url }: StoredUrl): FileEntry {
  const { url: href, direct, resolvedAt, expiresAt } = url;
  const clockOffsetMs = direct ? 0 : Math.round(urlExpiry(href) - expiresAt);
  return {
    ...file,
    url: href,
    direct,
    resolvedAt,
    ...(clockOffsetMs === 0 ? {} : { clockOffsetMs }),
  };
}

function runsOutLater(entry: StoredUrl, other: StoredUrl["url"]): boolean {
  const { expiresAt, resolvedAt } = entry.url;
  return expiresAt > other.expiresAt ||
    (expiresAt === other.expiresAt && resolvedAt > other.resolvedAt);
}

/** `urls-<hash>.json`: the hash keeps the name short and free of odd characters. */
function fileName(crypto: Io["crypto"], scope: UrlCacheScope): string {
  const { repository, pid, version } = scope;
  const hash = crypto.createHash("sha256")
    .update(JSON.stringify([repository, pid, version]))
    .digest("hex");
  return `urls-${hash.slice(0, 32)}.json`;
}

async function loadIo(): Promise<Io> {
  const [fs, path, crypto, os] = await Promise.all([
    import("node:fs"),
    import("node:path"),
    import("node:crypto"),
    import("node:os"),
  ]);
  return { fs, path, crypto, os, windows: os.platform() === "win32" };
}

/** The `process` global of Node and Bun, as far as it is used here. */
interface NodeProcess {
  versions?: { node?: string };
  once(event: "exit", listener: () => void): void;
  off(event: "exit", listener: () => void): void;
}

function hasFileSystem(): boolean {
  return "Deno" in globalThis ||
    typeof (globalThis as { process?: NodeProcess }).process?.versions?.node ===
      "string";
}

/**
 * Runs `listener` as the process exits, `Deno.exit` and a natural end
 * alike (Deno's `unload`; Node's and Bun's `exit`); returns how to stop.
 */
function onProcessExit(listener: () => void): () => void {
  if ("Deno" in globalThis) {
    addEventListener("unload", listener);
    return () => removeEventListener("unload", listener);
  }
  const node = (globalThis as { process?: NodeProcess }).process!;
  node.once("exit", listener);
  return () => node.off("exit", listener);
}

/** Lets the process end while `timer` is pending. */
function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  if (deno) deno.unrefTimer(timer);
  else (timer as unknown as { unref(): void }).unref();
}

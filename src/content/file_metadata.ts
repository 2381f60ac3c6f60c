/**
 * `FileMetadata`: the parsed metadata of files (an HDF5 file's Zarr view, a
 * classic NetCDF header, a Parquet footer, a zip central directory) that a
 * source keeps for its life, one entry per object of a file, so that a
 * second read of a file parses nothing again.
 *
 * @module
 */

import { RepoChangedError } from "../base/errors.ts";
import { SameObject } from "./same_object.ts";

/**
 * Reads of one object of one file: every answer is held to the object the
 * first one came from (`RepoChangedError` otherwise).
 *
 * @example
 * ```ts
 * import { type PinnedReads, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.bin": "HEAD|body" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const body = await fs.metadata.kept("a.bin", "example", async (reads: PinnedReads) => {
 *   strictEqual(new TextDecoder().decode(await reads.metadata(0, 4)), "HEAD");
 *   return new TextDecoder().decode(await reads.data(5, 9));
 * });
 * strictEqual(body, "body");
 * ```
 */
export interface PinnedReads {
  /** Metadata bytes `start`..`end`: counted toward the entry's size, and given to a pool's workers. */
  metadata(
    start: number,
    end: number,
    signal?: AbortSignal,
  ): Promise<Uint8Array>;
  /** Data bytes `start`..`end` (chunks, pages): not kept, and not read again where metadata reads held them. */
  data(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array>;
}

/**
 * Where a source keeps parsed metadata of its files: a `RepoFs` keeps it
 * for its life (a `RepoFsPool` shares its instance's), and format readers
 * parse each file through it once.
 *
 * @example
 * ```ts
 * import { type FileMetadata, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.bin": "HEAD|body" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const metadata: FileMetadata = fs.metadata;
 * let parses = 0;
 * const header = async () =>
 *   await metadata.kept("a.bin", "example", async (reads) => {
 *     parses++;
 *     return new TextDecoder().decode(await reads.metadata(0, 4));
 *   });
 * strictEqual(await header(), "HEAD");
 * strictEqual(await header(), "HEAD");
 * strictEqual(parses, 1);
 * ```
 */
export interface FileMetadata {
  /**
   * What `parse` makes of file `path` (as `kind`, the reader's name for
   * it), parsed once per object of the file and kept while that object is
   * unchanged. `parse` reads through `reads`, whose reads (later ones too)
   * are all of one object; one finding the file changed rejects with a
   * `RepoChangedError` and drops what was kept, so that the next call
   * parses the file afresh. A failed parse is not kept.
   */
  kept<T>(
    path: string,
    kind: string,
    parse: (reads: PinnedReads) => Promise<T>,
  ): Promise<T>;
  /** The metadata bytes `kept` read of `path` as `kind`, for a pool's worker to parse without reading them; `undefined` when none are kept. */
  seedOf(path: string, kind: string): Promise<MetadataSeed | undefined>;
  /** Takes `seed` (from another thread's `seedOf`): the next `kept` of its file parses from its bytes. */
  plant(seed: MetadataSeed): void;
  /** Drops what is kept of `path` as `kind`: another thread found the file changed. */
  drop(path: string, kind: string): Promise<void>;
  /** Drops everything kept. */
  forget(): void;
}

/**
 * Metadata bytes of one object of a file, as they cross to a pool's worker.
 *
 * @example
 * ```ts
 * import { type MetadataSeed, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.bin": "HEAD|body" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * await fs.metadata.kept("a.bin", "example", (reads) => reads.metadata(0, 4));
 * const seed: MetadataSeed | undefined = await fs.metadata.seedOf("a.bin", "example");
 * deepStrictEqual(seed?.ranges.map((r) => [r.start, r.bytes.length]), [[0, 4]]);
 * ```
 */
export interface MetadataSeed {
  /** The file's path. */
  path: string;
  /** The reader's name for what it parsed. */
  kind: string;
  /** The validators of the object they are of (`null` where it had none). */
  validators: { etag: string | null; lastModified: string | null };
  /** The bytes read, by offset in the file. */
  ranges: { start: number; bytes: Uint8Array }[];
}

/** How a source reads file `path` held to `object`; `identity` names the file (its id). */
export type OpenPinned = (
  path: string,
  object: SameObject,
) => Promise<{
  identity: string;
  read(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array>;
}>;

/** Default bound of the metadata a source keeps: 64 MiB. */
export const METADATA_BYTES = 64 * 2 ** 20;

interface Entry {
  object: SameObject;
  value: Promise<unknown>;
  ranges: { start: number; bytes: Uint8Array }[];
  bytes: number;
}

/**
 * A `FileMetadata` bounded to about `limit` bytes of metadata read, the
 * least recently used entries dropped first.
 */
export class MetadataLru implements FileMetadata {
  readonly #entries = new Map<string, Entry>();
  readonly #seeds = new Map<string, MetadataSeed>();
  #bytes = 0;

  constructor(
    readonly open: OpenPinned,
    readonly limit = METADATA_BYTES,
  ) {}

  async kept<T>(
    path: string,
    kind: string,
    parse: (reads: PinnedReads) => Promise<T>,
  ): Promise<T> {
    const seed = this.#seeds.get(seedKey(path, kind));
    const object = new SameObject(seed?.validators);
    const { identity, read } = await this.open(path, object);
    const key = `${identity}\n${kind}`;
    const hit = this.#entries.get(key);
    // A seed of another object than the one kept: the file changed since.
    if (hit !== undefined && seed && !sameObject(seed, hit.object.pinned)) {
      this.#drop(key, hit);
    } else if (hit !== undefined) {
      this.#seeds.delete(seedKey(path, kind));
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return await (hit.value as Promise<T>);
    }
    this.#seeds.delete(seedKey(path, kind));
    const entry: Entry = {
      object,
      value: Promise.resolve(),
      ranges: [],
      bytes: 0,
    };
    const pinned = async (start: number, end: number, signal?: AbortSignal) => {
      try {
        return await read(start, end, signal);
      } catch (error) {
        if (error instanceof RepoChangedError) this.#drop(key, entry);
        throw error;
      }
    };
    const reads: PinnedReads = {
      metadata: async (start, end, signal) => {
        const planted = seed && fromRanges(seed.ranges, start, end);
        const bytes = planted ?? await pinned(start, end, signal);
        if (this.#entries.get(key) === entry) {
          entry.ranges.push({ start, bytes });
          entry.bytes += bytes.length;
          this.#bytes += bytes.length;
          this.#evict(key);
        }
        return bytes;
      },
      data: async (start, end, signal) =>
        fromRanges(entry.ranges, start, end) ??
          await pinned(start, end, signal),
    };
    this.#entries.set(key, entry);
    entry.value = parse(reads);
    entry.value.catch(() => this.#drop(key, entry));
    this.#evict(key);
    return await (entry.value as Promise<T>);
  }

  async seedOf(path: string, kind: string): Promise<MetadataSeed | undefined> {
    const { identity } = await this.open(path, new SameObject());
    const entry = this.#entries.get(`${identity}\n${kind}`);
    const validators = entry?.object.pinned;
    if (entry === undefined || validators === undefined) return undefined;
    await entry.value;
    return { path, kind, validators, ranges: [...entry.ranges] };
  }

  plant(seed: MetadataSeed): void {
    this.#seeds.set(seedKey(seed.path, seed.kind), seed);
  }

  async drop(path: string, kind: string): Promise<void> {
    const { identity } = await this.open(path, new SameObject());
    const key = `${identity}\n${kind}`;
    const entry = this.#entries.get(key);
    if (entry !== undefined) this.#drop(key, entry);
  }

  forget(): void {
    this.#entries.clear();
    this.#seeds.clear();
    this.#bytes = 0;
  }

  #drop(key: string, entry: Entry): void {
    if (this.#entries.get(key) !== entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Drops the least recently used entries other than `keep` while over the limit. */
  #evict(keep: string): void {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.limit) return;
      if (key !== keep) this.#drop(key, entry);
    }
  }
}

function sameObject(
  seed: MetadataSeed,
  pinned: MetadataSeed["validators"] | undefined,
): boolean {
  return seed.validators.etag === pinned?.etag &&
    seed.validators.lastModified === pinned?.lastModified;
}

function seedKey(path: string, kind: string): string {
  return `${path}\n${kind}`;
}

/** Bytes `start`..`end` when `ranges` hold them all. */
function fromRanges(
  ranges: MetadataSeed["ranges"],
  start: number,
  end: number,
): Uint8Array | undefined {
  const out = new Uint8Array(end - start);
  let covered = start;
  for (const range of [...ranges].sort((a, b) => a.start - b.start)) {
    const rangeEnd = range.start + range.bytes.length;
    if (range.start > covered || rangeEnd <= covered) continue;
    const upTo = Math.min(end, rangeEnd);
    out.set(
      range.bytes.subarray(covered - range.start, upTo - range.start),
      covered - start,
    );
    covered = upTo;
    if (covered === end) return out;
  }
  return covered >= end ? out : undefined;
}

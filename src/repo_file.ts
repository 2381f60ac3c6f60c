/**
 * `RepoFile`, what `open()` gives on a `RepoFs` and on a `RepoFsPool`: one
 * shape over two ways of reading.
 *
 * @module
 */

/**
 * Options of a byte-range read.
 *
 * @example
 * ```ts
 * import { type ReadOptions, RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a.txt": "hello world" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const lastFive: ReadOptions = { start: -5 };
 * strictEqual(new TextDecoder().decode(await fs.catFile("a.txt", lastFive)), "world");
 * const file = await fs.open("a.txt");
 * strictEqual(new TextDecoder().decode(await file.read({ start: 1, end: -6 })), "ello");
 * ```
 */
export interface ReadOptions {
  /** First byte (negative: from the end). Default 0. */
  start?: number | null;
  /** Byte after the last (exclusive; negative: from the end). Default: end of file. */
  end?: number | null;
  /** Aborts the read. */
  signal?: AbortSignal;
}

/**
 * An open file: random access and streaming without holding it in memory.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "big/archive.bin": new Uint8Array(100_000) },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 *
 * const file = await fs.open("big/archive.bin");
 * const header = await file.read({ start: 0, end: 512 });
 * strictEqual(header.byteLength, 512);
 * let streamed = 0;
 * for await (const chunk of file.stream({ start: -10_000 })) streamed += chunk.byteLength;
 * strictEqual(streamed, 10_000);
 * ```
 */
export interface RepoFile {
  /** Path from the dataset root. */
  readonly path: string;
  /** Listed size, `null` when the listing gave none. */
  readonly size: number | null;
  /** Bytes `start` to `end` (exclusive; negatives from the end); the whole file by default. */
  read(options?: ReadOptions): Promise<Uint8Array>;
  /** Bytes `start` to `end` (exclusive; negatives from the end). */
  read(
    start?: number,
    end?: number,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array>;
  /**
   * Bytes `start` to `end` (as `read`; the whole file by default) as a
   * stream, without holding them all in memory.
   */
  stream(options?: ReadOptions): ReadableStream<Uint8Array>;
}

/**
 * A {@linkcode RepoFile} whose reads and streams go to `read` and `stream`,
 * both given {@linkcode ReadOptions} whichever way `read` was called.
 */
export function repoFile(
  path: string,
  size: number | null,
  read: (options: ReadOptions) => Promise<Uint8Array>,
  stream: (options: ReadOptions) => ReadableStream<Uint8Array>,
): RepoFile {
  return {
    path,
    size,
    read: (
      first?: ReadOptions | number,
      end?: number,
      options?: { signal?: AbortSignal },
    ) =>
      read(
        typeof first === "object" && first !== null
          ? first
          : { start: first, end, signal: options?.signal },
      ),
    stream: (options = {}) => stream(options),
  };
}

/**
 * A zip archive of a source as a read-only tree with the verbs of `RepoFs`,
 * built from its central directory the first time it is asked anything.
 *
 * @module
 */

import { abortable } from "../../base/abort_callbacks.ts";
import type { FileInfo, Logger } from "../../base/types.ts";
import { concat } from "../../content/content.ts";
import { planRange } from "../../content/byte_range.ts";
import { listedKey, normalizePath } from "../../tree/paths.ts";
import { RoutingTable } from "../../tree/routing_table.ts";
import { entryIn, ReadOnlyTree } from "../../tree/read_only_tree.ts";
import type { ByteSource } from "../source.ts";
import type { FileMetadata } from "../../content/file_metadata.ts";
import { type FileSources, keptMetadata } from "../kept_metadata.ts";
import { readCentralDirectory, type ZipEntry } from "./central_directory.ts";
import { ZipArchive } from "./member_reader.ts";
import { ZipFormatError } from "./zip_format_error.ts";

/**
 * Options of {@linkcode zipTree}.
 *
 * @example
 * ```ts
 * import { type Logger, RepoFs } from "@x/repo-fs";
 * import { zipTree, type ZipTreeOptions } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // An archive holding hi.txt twice: "hello, zip", then "again".
 * const archive = Uint8Array.from(atob(
 *   "UEsDBBQAAAAAAAAAIVic5+EcCgAAAAoAAAAGAAAAaGkudHh0aGVsbG8sIHppcFBLAwQUAAAAAAAAACFY/FuhkwUA" +
 *     "AAAFAAAABgAAAGhpLnR4dGFnYWluUEsBAhQDFAAAAAAAAAAhWJzn4RwKAAAACgAAAAYAAAAAAAAAAAAAAIABAAAA" +
 *     "AGhpLnR4dFBLAQIUAxQAAAAAAAAAIVj8W6GTBQAAAAUAAAAGAAAAAAAAAAAAAACAAS4AAABoaS50eHRQSwUGAAAA" +
 *     "AAIAAgBoAAAAVwAAAAAA",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "data.zip": archive } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const warnings: string[] = [];
 * const logger: Logger = { debug() {}, info() {}, warn: (line) => warnings.push(line) };
 * const options: ZipTreeOptions = { logger };
 * const zip = zipTree(fs, "data.zip", options);
 * strictEqual(new TextDecoder().decode(await zip.catFile("hi.txt")), "hello, zip");
 * strictEqual(warnings.length, 1); // the second hi.txt, left out
 * ```
 */
export interface ZipTreeOptions {
  /** Where warnings go (a member name given twice: the first is kept). */
  logger?: Logger;
}

/**
 * Options of a member's byte-range read.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type ZipReadOptions, zipTree } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // An archive holding hi.txt: "hello, zip".
 * const archive = Uint8Array.from(atob(
 *   "UEsDBBQAAAAAAAAAIVic5+EcCgAAAAoAAAAGAAAAaGkudHh0aGVsbG8sIHppcFBLAQIUAxQAAAAAAAAAIVic5+Ec" +
 *     "CgAAAAoAAAAGAAAAAAAAAAAAAACAAQAAAABoaS50eHRQSwUGAAAAAAEAAQA0AAAALgAAAAAA",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "data.zip": archive } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const lastThree: ZipReadOptions = { start: -3 };
 * const bytes = await zipTree(fs, "data.zip").catFile("hi.txt", lastThree);
 * strictEqual(new TextDecoder().decode(bytes), "zip");
 * ```
 */
export interface ZipReadOptions {
  /** First byte (negative: from the end). Default 0. */
  start?: number | null;
  /** Byte after the last (exclusive; negative: from the end). Default: end of the member. */
  end?: number | null;
  /** Aborts the read. */
  signal?: AbortSignal;
}

/**
 * An open member: random access and streaming.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type ZipFile, zipTree } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { strictEqual } from "node:assert/strict";
 * // An archive holding hi.txt: "hello, zip".
 * const archive = Uint8Array.from(atob(
 *   "UEsDBBQAAAAAAAAAIVic5+EcCgAAAAoAAAAGAAAAaGkudHh0aGVsbG8sIHppcFBLAQIUAxQAAAAAAAAAIVic5+Ec" +
 *     "CgAAAAoAAAAGAAAAAAAAAAAAAACAAQAAAABoaS50eHRQSwUGAAAAAAEAAQA0AAAALgAAAAAA",
 * ), (c) => c.charCodeAt(0));
 * await using emu = await startEmulator({ files: { "data.zip": archive } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const file: ZipFile = await zipTree(fs, "data.zip").open("hi.txt");
 * strictEqual(file.size, 10);
 * strictEqual(new TextDecoder().decode(await file.read({ start: 0, end: 5 })), "hello");
 * const rest = await new Response(file.stream({ start: 7 })).text();
 * strictEqual(rest, "zip");
 * ```
 */
export interface ZipFile {
  /** Path of the member inside the archive. */
  readonly path: string;
  /** Bytes once uncompressed. */
  readonly size: number;
  /** Bytes `start` to `end` (exclusive; negatives from the end). */
  read(options?: ZipReadOptions): Promise<Uint8Array>;
  /** The same, with the bounds given apart. */
  read(
    start?: number,
    end?: number,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array>;
  /** The member, or `start`..`end` of it, as a stream. */
  stream(options?: ZipReadOptions): ReadableStream<Uint8Array>;
}

interface Mounted {
  table: RoutingTable;
  entries: ZipEntry[];
  archive: ZipArchive;
  /** Which reading of the central directory this is: members' kept metadata is of one. */
  generation: number;
}

/** Central directories read so far, to tell one reading of an archive from the next. */
let generations = 0;

/**
 * A zip file of a source as a read-only tree; see {@linkcode zipTree}.
 * Its `ls` and `info` show a member's comment, if it has one.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { ZipTree } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { rejects } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "notes.zip": "not a zip" } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const tree = new ZipTree(fs, "notes.zip");
 * await rejects(tree.ls(""), { name: "ZipFormatError" });
 * ```
 */
export class ZipTree extends ReadOnlyTree {
  /** What holds the archive. */
  readonly source: ByteSource;
  /** The archive's path in `source`. */
  readonly path: string;
  /**
   * Where format readers keep the parsed metadata of its members, as
   * `source` keeps it (each member's under the archive's identity); absent
   * where `source` keeps none.
   */
  readonly metadata?: FileMetadata;
  readonly #logger?: Logger;
  #mounted?: Promise<Mounted>;

  /**
   * Nothing is read until the first call.
   * @param source a `RepoFs`, a `RepoFsPool`, another `ZipTree`
   * @param path the archive's path in `source`
   * @param options where warnings go
   */
  constructor(source: ByteSource, path: string, options: ZipTreeOptions = {}) {
    super();
    this.source = source;
    this.path = path;
    this.#logger = options.logger;
    const kept = source.metadata;
    if (kept !== undefined) this.metadata = this.#memberMetadata(kept);
  }

  /**
   * The archive's table, read from its central directory once.
   * @ignore
   */
  protected async routingTable(signal?: AbortSignal): Promise<RoutingTable> {
    return (await this.#mount(signal)).table;
  }

  /**
   * Entries as `ls` and `info` show them: with the member's comment, if it
   * has one, and without the table's id.
   * @ignore
   */
  protected override async shown(
    entries: FileInfo[],
  ): Promise<FileInfo[]> {
    const members = (await this.#mount()).entries;
    return entries.map((entry) => shown(entry, members));
  }

  /**
   * The bytes of a member, or of `start`..`end` of it (end exclusive,
   * negatives from the end). A whole read is checked against the member's
   * CRC-32.
   */
  async catFile(
    path: string,
    options: ZipReadOptions = {},
  ): Promise<Uint8Array> {
    const { archive, entry } = await this.#lookupFile(path, options.signal);
    const [start, end] = bounds(options, entry.size);
    const chunks: Uint8Array[] = [];
    for await (
      const chunk of archive.chunks(entry, start, end, options.signal, Infinity)
    ) {
      chunks.push(chunk);
    }
    const bytes = concat(chunks);
    // A piece read with the local header is a view of a larger buffer.
    return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  }

  /**
   * A member, or `start`..`end` of it, as a stream; a whole member's CRC-32
   * is checked before the stream closes.
   */
  stream(
    path: string,
    options: ZipReadOptions = {},
  ): ReadableStream<Uint8Array> {
    const lookup = () => this.#lookupFile(path, options.signal);
    const chunks = (async function* () {
      const { archive, entry } = await lookup();
      const [start, end] = bounds(options, entry.size);
      yield* archive.chunks(entry, start, end, options.signal);
    })();
    // Not ReadableStream.from, which some browsers lack.
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await chunks.return(undefined);
      },
    }, { highWaterMark: 0 });
  }

  /** An open member for random access and streaming. */
  async open(path: string): Promise<ZipFile> {
    const { key, entry } = await this.#lookupFile(path);
    const read = (
      first?: number | ZipReadOptions,
      end?: number,
      options: { signal?: AbortSignal } = {},
    ) =>
      this.catFile(
        key,
        typeof first === "object" ? first : { start: first, end, ...options },
      );
    return {
      path: key,
      size: entry.size,
      read,
      stream: (options) => this.stream(key, options),
    };
  }

  /** `kept`, for members: keyed by the archive, the member and the reading of the central directory. */
  #memberMetadata(kept: FileMetadata): FileMetadata {
    return {
      kept: async (member, kind, parse) => {
        const { generation } = await this.#mount();
        const key = normalizePath(member);
        const read = (start: number, end: number, signal?: AbortSignal) =>
          this.catFile(key, { start, end, signal });
        return await kept.kept(
          this.path,
          `${kind} of member ${key} (reading ${generation})`,
          () => parse({ metadata: read, data: read }),
        );
      },
      seedOf: () => Promise.resolve(undefined),
      plant: () => {},
      drop: () => Promise.resolve(),
      forget: () => kept.forget(),
    };
  }

  #mount(signal?: AbortSignal): Promise<Mounted> {
    if (this.source.metadata !== undefined) {
      return keptMetadata(
        this.source,
        this.path,
        "zip",
        (sources) => this.#read(sources),
        signal,
      );
    }
    if (this.#mounted === undefined) {
      const mounted = this.#read({ metadata: this.source, data: this.source });
      mounted.catch(() => {
        if (this.#mounted === mounted) this.#mounted = undefined;
      });
      this.#mounted = mounted;
    }
    return abortable(this.#mounted, signal);
  }

  async #read(sources: FileSources): Promise<Mounted> {
    const { entries } = await readCentralDirectory(
      sources.metadata,
      this.path,
    );
    const builder = RoutingTable.builder(this.#logger);
    entries.forEach((entry, id) => {
      const key = memberKey(entry.name.replaceAll("\0", "_"), this.path);
      if (entry.name.includes("\0")) {
        // No path can name it: the table leaves it out, with a warning.
        builder.add({ path: entry.name, id, size: entry.size });
      } else if (entry.name.endsWith("/")) builder.addDirectory(key, id);
      else builder.add({ path: key, id, size: entry.size });
    });
    return {
      table: builder.finish(),
      entries,
      archive: new ZipArchive(sources.data, this.path),
      generation: ++generations,
    };
  }

  /** The member `path` and the archive it is read from. */
  async #lookupFile(path: string, signal?: AbortSignal) {
    const key = normalizePath(path);
    const { table, entries, archive } = await this.#mount(signal);
    const entry = entries[entryIn(table, key, "file").id!];
    return { key, entry, archive };
  }
}

/**
 * Mounts the zip file at `path` of `source` as a read-only tree with the
 * verbs of `RepoFs` (`ls`, `info`, `exists`, `find`, `glob`, `isDir`,
 * `isFile`, `du`, `walk`, `cat`, `catRanges`), `catFile` (with ranges),
 * `open` and `stream`. Nothing is read until the first
 * call; then the archive's end record and central directory (zip64
 * included) are read by range, once. A stored member's ranges are ranges
 * of the archive; a compressed one (deflate, Deflate64, Zstandard) is
 * decoded from its start, reading no further than the range asked needs,
 * and goes on from where the last read stopped, so ranges read in
 * increasing order decode it once. Directory entries are folders; names
 * come from the Unicode Path field where it holds. Encrypted members,
 * multi-disk archives, other compression methods, a local header that
 * disagrees with the central directory, overlapping members, data decoding
 * past its declared size, and member names with a `..` segment or a
 * leading `/` are refused with a {@linkcode ZipFormatError}. The tree is itself a source: zip files inside
 * it mount the same way, and `zarrStore` reads a Zarr store inside it.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { zipTree } from "@x/repo-fs/zip";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 *
 * // docs/hi.txt and readme.txt, as `zip -X` writes them.
 * const archive = Uint8Array.from(atob(
 *   "UEsDBAoAAAAAAENTel2GphA2BQAAAAUAAAALAAAAZG9jcy9oaS50eHRoZWxsb1BLAwQKAAAAAABDU3pd" +
 *     "GzhyywsAAAALAAAACgAAAHJlYWRtZS50eHRoZWxsbywgemlwClBLAQIeAwoAAAAAAENTel2GphA2BQAA" +
 *     "AAUAAAALAAAAAAAAAAAAAACkgQAAAABkb2NzL2hpLnR4dFBLAQIeAwoAAAAAAENTel0bOHLLCwAAAAsA" +
 *     "AAAKAAAAAAAAAAEAAACkgS4AAAByZWFkbWUudHh0UEsFBgAAAAACAAIAcQAAAGEAAAAAAA==",
 * ), (c) => c.charCodeAt(0));
 *
 * await using emu = await startEmulator({ files: { "data.zip": archive } });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const zip = zipTree(fs, "data.zip");
 * deepStrictEqual(await zip.find(""), ["docs/hi.txt", "readme.txt"]);
 * const hello = await zip.catFile("docs/hi.txt");
 * strictEqual(new TextDecoder().decode(hello), "hello");
 * const ell = await zip.catFile("docs/hi.txt", { start: 1, end: -1 });
 * strictEqual(new TextDecoder().decode(ell), "ell");
 * ```
 *
 * @param source a `RepoFs`, a `RepoFsPool`, or another `zipTree`
 * @param path the zip file's path in `source`
 * @param options where warnings go
 */
export function zipTree(
  source: ByteSource,
  path: string,
  options: ZipTreeOptions = {},
): ZipTree {
  return new ZipTree(source, path, options);
}

/** The tree key of a member name, refusing names that would leave the tree. */
function memberKey(name: string, archive: string): string {
  const bare = name.endsWith("/") ? name.slice(0, -1) : name;
  try {
    if (bare.startsWith("/") || /^[A-Za-z]:/.test(bare)) {
      throw new TypeError("it is absolute");
    }
    return listedKey(bare);
  } catch (error) {
    throw new ZipFormatError(
      archive,
      `the member name is refused: ${(error as Error).message}`,
      name,
    );
  }
}

/** The member's absolute `[start, end)` for fsspec's bounds. */
function bounds(options: ZipReadOptions, size: number): [number, number] {
  const plan = planRange(options.start, options.end, size);
  switch (plan.kind) {
    case "empty":
      return [0, 0];
    case "from":
      return [Math.min(plan.start, size), size];
    case "suffix":
      return [Math.max(0, size - plan.length), size];
    case "bounded":
      return [Math.min(plan.start, size), Math.min(plan.end, size)];
  }
}

/** What `ls` and `info` show of an entry: a copy without the table's id. */
function shown(entry: FileInfo, members: ZipEntry[]): FileInfo {
  const { comment } = entry.id === undefined ? {} : members[entry.id] ?? {};
  return {
    name: entry.name,
    type: entry.type,
    size: entry.size,
    ...(comment === undefined ? {} : { comment }),
  };
}

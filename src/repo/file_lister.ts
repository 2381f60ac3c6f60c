/**
 * Reading a dataset version's file list into a table: page by page where
 * the installation pages it (newer ones), in one answer where it does not,
 * checking that the pages add up to one consistent list.
 *
 * @module
 */

import { RepoHttpError, RepoProtocolError } from "../base/errors.ts";
import type { FilePage, RepoApi } from "./repo_api.ts";
import type { ListedFile } from "../base/listed_file.ts";
import type { Logger } from "../base/types.ts";

/** Files asked for per page. */
const PAGE_SIZE = 1000;
/** A progress line every this many pages. */
const PAGES_PER_PROGRESS_LINE = 10;

/**
 * Where listed files go: `add` each, then `finish` once. A
 * `RoutingTable.builder()` is one.
 *
 * @example
 * ```ts
 * import type { ListingSink } from "./file_lister.ts";
 * const paths: string[] = [];
 * const sink: ListingSink<string[]> = { add: (f) => paths.push(f.path), finish: () => paths };
 * ```
 */
export interface ListingSink<T> {
  /** Takes one listed file. */
  add(file: ListedFile): void;
  /** What the files made; called once, after the last `add`. */
  finish(): T;
}

/** Pages that do not add up to one list: the dataset changed between them, or the server pages wrongly. */
class InconsistentPages extends RepoProtocolError {}

/**
 * Lists one repository's dataset versions. It starts with the paged file
 * list; the first 404 there (an older installation) makes this instance
 * read whole listings from then on. Pages whose `totalCount` changes, that
 * repeat a file id or that stop short restart the listing once; a second
 * time they are a {@linkcode RepoProtocolError}.
 *
 * @example
 * ```ts
 * import { FileLister } from "./file_lister.ts";
 * import { RepoApi } from "./repo_api.ts";
 * import { startEmulator } from "../../emulator.ts";
 * import { RoutingTable } from "../tree/routing_table.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ files: { "a/b.txt": "x", "c.txt": "yz" }, maxPageSize: 1 });
 * const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
 * const lister = new FileLister(api, console);
 * const table = await lister.list(emu.pid, ":latest", () => RoutingTable.builder());
 * deepStrictEqual(table.find(""), ["a/b.txt", "c.txt"]);
 * strictEqual(emu.counters.listingCalls, 2); // one page per file here
 * ```
 */
export class FileLister {
  #paged = true;

  /**
   * @param api the repository
   * @param logger where progress and restarts are told
   */
  constructor(readonly api: RepoApi, readonly logger?: Logger) {}

  /** Every file of `version` of the dataset `pid`, fed to a sink from `start`. */
  async list<T>(
    pid: string,
    version: string,
    start: () => ListingSink<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.#paged) {
      try {
        return await this.#pages(pid, version, start, signal);
      } catch (error) {
        if (!(error instanceof RepoHttpError && error.status === 404)) {
          throw error;
        }
        this.#paged = false;
        this.logger?.debug(
          `No paged file list at ${error.url}; reading whole listings`,
        );
      }
    }
    const sink = start();
    for (const file of await this.api.listFiles(pid, version, signal)) {
      sink.add(file);
    }
    return sink.finish();
  }

  async #pages<T>(
    pid: string,
    version: string,
    start: () => ListingSink<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    try {
      return await this.#readPages(pid, version, start(), signal);
    } catch (error) {
      if (!(error instanceof InconsistentPages)) throw error;
      this.logger?.warn(`${error.message}; listing ${pid} again`);
    }
    return await this.#readPages(pid, version, start(), signal);
  }

  async #readPages<T>(
    pid: string,
    version: string,
    sink: ListingSink<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const seen = new Set<number>();
    let total: number | undefined;
    let offset = 0;
    for (let pages = 1;; pages++) {
      const page = await this.api.filePage(
        pid,
        version,
        offset,
        PAGE_SIZE,
        signal,
      );
      if (total === undefined) {
        if (page.totalCount === undefined) {
          // Installations before paging ignore limit and offset: all files at once.
          for (const file of page.files) sink.add(file);
          return sink.finish();
        }
        total = page.totalCount;
      }
      const problem = pageProblem(page, offset, total);
      if (problem !== undefined) throw new InconsistentPages(problem, page.url);
      for (const file of page.files) {
        if (seen.has(file.id)) {
          throw new InconsistentPages(
            `file id ${file.id} is listed again on the page from offset ${offset}`,
            page.url,
          );
        }
        seen.add(file.id);
        sink.add(file);
      }
      offset += page.length;
      if (offset >= total) return sink.finish();
      if (pages % PAGES_PER_PROGRESS_LINE === 0) {
        this.logger?.info(
          `Listed ${grouped(offset)} of ${grouped(total)} files of ${pid}`,
        );
      }
    }
  }
}

/** What is wrong with a page given where it starts and the count the first page gave. */
function pageProblem(
  page: FilePage,
  offset: number,
  total: number,
): string | undefined {
  if (page.totalCount === undefined) {
    return `the page from offset ${offset} of the file list has no totalCount`;
  }
  if (page.totalCount !== total) {
    return `the file count changed from ${total} to ${page.totalCount} while the list was read`;
  }
  if (page.length === 0 && offset < total) {
    return `the file list ended after ${offset} of ${total} files`;
  }
  if (offset + page.length > total) {
    return `the page from offset ${offset} holds ${page.length} files, more than the ${
      total - offset
    } left of ${total}`;
  }
  return undefined;
}

function grouped(n: number): string {
  return n.toLocaleString("en-US");
}

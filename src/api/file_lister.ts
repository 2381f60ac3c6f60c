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
/** Most pages of the file list in flight at once. */
const PAGES_AHEAD = 3;
/** A progress line every this many pages. */
const PAGES_PER_PROGRESS_LINE = 10;

/**
 * Where listed files go: `add` each, then `finish` once. A
 * `RoutingTable.builder()` is one.
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
 * list, asking for up to three pages ahead of the one it adds; the first
 * 404 there (an older installation) makes this instance read whole
 * listings from then on. Pages whose `totalCount` changes, that repeat a
 * file id or that stop short restart the listing once; a second time they
 * are a {@linkcode RepoProtocolError}.
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
    const page = (offset: number) =>
      this.api.filePage(pid, version, offset, PAGE_SIZE, signal);
    const first = await page(0);
    if (first.totalCount === undefined) {
      // Installations before paging ignore limit and offset: all files at once.
      for (const file of first.files) sink.add(file);
      return sink.finish();
    }
    const total = first.totalCount;
    const ahead = new PagesAhead(page, first.length, total);
    try {
      const seen = new Set<number>();
      let offset = 0;
      for (let pages = 1;; pages++) {
        const current = pages === 1 ? first : await ahead.take(offset);
        const problem = pageProblem(current, offset, total);
        if (problem !== undefined) {
          throw new InconsistentPages(problem, current.url);
        }
        for (const file of current.files) {
          if (seen.has(file.id)) {
            throw new InconsistentPages(
              `file id ${file.id} is listed again on the page from offset ${offset}`,
              current.url,
            );
          }
          seen.add(file.id);
          sink.add(file);
        }
        offset += current.length;
        if (offset >= total) return sink.finish();
        if (pages % PAGES_PER_PROGRESS_LINE === 0) {
          this.logger?.info(
            `Listed ${grouped(offset)} of ${grouped(total)} files of ${pid}`,
          );
        }
      }
    } finally {
      await ahead.settled();
    }
  }
}

/**
 * The pages after the first, asked for before they are needed: up to
 * `PAGES_AHEAD` in flight at once, the one awaited included, at the
 * offsets the first page's length predicts (a server that caps the page
 * size caps every page). A page asked for at an offset the list does not
 * reach (an earlier page was short) is dropped, and the page at the real
 * offset is asked for then.
 */
class PagesAhead {
  /** Pages asked for and not yet taken, by offset. */
  readonly #asked = new Map<number, Promise<FilePage>>();
  /** Every page asked for ahead, taken or not. */
  readonly #sent: Promise<unknown>[] = [];
  #next: number;

  constructor(
    readonly page: (offset: number) => Promise<FilePage>,
    readonly step: number,
    readonly total: number,
  ) {
    this.#next = step;
    this.#askAhead();
  }

  /** The page from `offset`; once it is in, the next page is asked for. */
  take(offset: number): Promise<FilePage> {
    let page: Promise<FilePage> | undefined;
    for (const [at, asked] of this.#asked) {
      if (at > offset) continue;
      this.#asked.delete(at);
      if (at === offset) page = asked;
    }
    if (page === undefined) {
      this.#next = Math.max(this.#next, offset + this.step);
      page = this.page(offset);
    }
    return page.then((taken) => {
      this.#askAhead();
      return taken;
    });
  }

  /** Waits for every page asked for, whatever became of them. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#sent);
  }

  #askAhead(): void {
    while (
      this.step > 0 && this.#asked.size < PAGES_AHEAD && this.#next < this.total
    ) {
      const asked = this.page(this.#next);
      // Its failure is thrown to whoever takes it; a page never taken fails unseen.
      this.#sent.push(asked.catch(() => {}));
      this.#asked.set(this.#next, asked);
      this.#next += this.step;
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

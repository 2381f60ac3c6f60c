/**
 * The one read primitive: a cursor over the bytes `start`..`end` of a file
 * that hands them out one network chunk at a time. It opens requests
 * through {@linkcode classifyAnswer}, keeps one idle deadline per request,
 * resumes from the next byte after a dropped, stalled or capped body, lets
 * {@linkcode retrying} decide what is worth another attempt, and resolves
 * a refused URL afresh once per stretch without progress. Every answer is
 * held to the object of the first ({@linkcode SameObject}), and a body that
 * no length bounds stops at `maxBytes`.
 *
 * Progress is an answer that ends where it said it would, or that brings
 * {@linkcode PROGRESS_BYTES} before it breaks off: the failures since the
 * last progress share one set of retries, so that a server breaking off
 * every answer after a few bytes, or stalling after them, ends the read
 * after the policy's retries instead of resuming it byte by byte.
 *
 * @module
 */

import {
  type Asked,
  classifyAnswer,
  expectTotal,
  rangeFor,
  StaleUrlError,
  UNENCODED,
} from "./content_answer.ts";
import type { ContentFile } from "./content_file.ts";
import type { UrlResolver } from "../urls/download_urls.ts";
import type { ResolvedUrl } from "../base/types.ts";
import {
  errorMessage,
  RepoConnectionError,
  RepoProtocolError,
} from "../base/errors.ts";
import { explainRefusal } from "./refusal.ts";
import { SameObject } from "./same_object.ts";
import {
  contentUrlProblem,
  isRepositoryUrl,
  repositoryHeaders,
} from "../api/repo_api.ts";
import { Deadline, type Transport } from "../api/request.ts";
import {
  isRetriable,
  type RetryCost,
  retrying,
  type RetryPolicy,
} from "../api/retry.ts";

/**
 * Bytes an answer must bring before it breaks off for the break to count as
 * progress, which gives the read its full retries again.
 */
export const PROGRESS_BYTES = 64 * 1024;

/** The most bytes read of a body whose length neither answer nor listing says: 64 GiB. */
export const DEFAULT_MAX_BYTES = 64 * 1024 ** 3;

/** What every cursor of one `RepoFs` shares. */
export interface CursorContext {
  /** Where content URLs come from. */
  urls: UrlResolver;
  /** fetch and the idle timeout. */
  transport: Transport;
  /** The retry policy. */
  retry: RetryPolicy;
  /** The repository base (`.../api`): which content URLs may be read. */
  repository: string;
  /** Content URLs found fit to read. */
  checked: WeakSet<ResolvedUrl>;
  /** API token: sent only when the repository serves the bytes itself. */
  token?: string;
  /** The header that carries the token; `X-Repo-key` when absent. */
  tokenHeader?: string;
  /** Told the file's true size whenever an answer reveals it. */
  learnTotal(fileId: number, total: number): void;
  /**
   * The most bytes read of a body that no `Content-Length` and no exact
   * listed size bound; {@linkcode DEFAULT_MAX_BYTES} when absent.
   */
  maxBytes?: number;
}

/** A request whose body is being read. */
interface OpenBody {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  deadline: Deadline;
  url: string;
  /** File offset of the body's next byte. */
  position: number;
  /** Body bytes still to drop before `asked.start`. */
  skip: number;
  /** Where the body ends (exclusive), when the answer said. */
  end: number | undefined;
  /** The body is the whole file. */
  whole: boolean;
  /** The file's size, when the answer said. */
  total: number | undefined;
}

/**
 * Bytes `start` up to `end` (exclusive; the end of the file when absent)
 * of one file, chunk by chunk. Close it when done, whether or not it was
 * read to the end.
 */
export class BodyCursor {
  #offset: number;
  readonly #end: number | undefined;
  #target?: ResolvedUrl;
  #stale?: string;
  #refreshed = false;
  #open?: OpenBody;
  /** The cursor's offset when the open body's answer arrived. */
  #answerFrom = 0;
  /** Failed attempts since the last progress (see {@linkcode PROGRESS_BYTES}). */
  #failures = 0;
  #finished = false;
  /** The file as this read knows it: listed, then sized by an answer. */
  #known: ContentFile;
  /** Where the last whole body of unsaid length ended short of the size known. */
  #shortEnd?: number;

  /**
   * @param context what the cursors of one `RepoFs` share
   * @param file the file to read
   * @param asked the bytes to read
   * @param signal aborts the read
   * @param object the object every answer must be of, shared by the reads
   *   of one handle; pinned by this cursor's first answer when new
   */
  constructor(
    readonly context: CursorContext,
    readonly file: ContentFile,
    asked: Asked,
    readonly signal?: AbortSignal,
    readonly object: SameObject = new SameObject(),
  ) {
    this.#offset = asked.start;
    this.#end = asked.end;
    this.#known = file;
  }

  /**
   * The next chunk, never empty; `null` at the end. Failures are retried
   * as the policy says; the error that ends the read is thrown as it is,
   * a refusal of a restricted or embargoed file with the reason added
   * (see {@linkcode explainRefusal}).
   */
  async next(): Promise<Uint8Array | null> {
    try {
      return await this.#next();
    } catch (error) {
      const { repository, token } = this.context;
      throw explainRefusal(error, this.file, repository, token !== undefined);
    }
  }

  async #next(): Promise<Uint8Array | null> {
    for (;;) {
      this.signal?.throwIfAborted();
      if (this.#finished || this.#reachedEnd()) return await this.#finish();
      this.#target ??= await this.context.urls.resolve(
        this.file,
        this.#stale,
        this.signal,
      );
      try {
        return await retrying(
          this.context.retry,
          this.signal,
          () => this.#step(),
          withoutProgress,
          this.#failures,
        );
      } catch (error) {
        if (!(error instanceof StaleUrlError)) throw error;
        if (this.#refreshed) throw error.final;
        this.#refreshed = true;
        this.#stale = error.url;
        this.#target = undefined;
      }
    }
  }

  #reachedEnd(): boolean {
    return this.#end !== undefined && this.#offset >= this.#end;
  }

  /**
   * The cursor has all it asked for. A whole-file body of unsaid length
   * that is still open is first read on and its length checked against
   * the size an answer gave or the listing: a page (or an encoded file) can
   * begin with as many bytes as were asked and still not be the file. It
   * is read until its end or one byte past that size, whichever comes
   * first. A body that breaks off before that fails the read for good,
   * since the cursor is done and a retry would have nothing left to check.
   */
  async #finish(): Promise<null> {
    const open = this.#open;
    const size = this.#known.answeredSize ?? this.#known.size;
    try {
      if (open?.whole && open.end === undefined && size !== null) {
        await this.#checkWholeLength(open, size);
      }
    } finally {
      await this.close();
    }
    return null;
  }

  async #checkWholeLength(open: OpenBody, size: number): Promise<void> {
    let intact = true;
    try {
      while (open.position <= size) {
        if ((await this.#read(open)) === null) break;
      }
    } catch (error) {
      if (!(error instanceof RepoConnectionError)) throw error;
      intact = false;
    }
    if (intact && open.position >= size) {
      return expectTotal(open.position, this.#known, open.url);
    }
    await this.#checkRest(open.position, size, open.url);
  }

  /**
   * Checks the length of a file whose body of unsaid length broke off or
   * ended short at `from`: its bytes from there to one past `size` are read
   * (and dropped) as any read is, resumes and checks included. The cursor is
   * done, so a failure that a retry of it would skip ends the read.
   */
  async #checkRest(from: number, size: number, url: string): Promise<void> {
    const rest = new BodyCursor(
      this.context,
      this.#known,
      { start: from, end: size + 1 },
      this.signal,
      this.object,
    );
    try {
      while ((await rest.next()) !== null);
    } catch (error) {
      if (!isRetriable(error)) throw error;
      throw new RepoProtocolError(
        `the answer did not say its length and ended at byte ${from}, and the rest could not be read to check it against the ${size} bytes known: ${
          errorMessage(error)
        }`,
        url,
        { cause: error },
      );
    } finally {
      await rest.close();
    }
  }

  /** Stops reading: the open body, if any, is cancelled. */
  async close(): Promise<void> {
    this.#finished = true;
    await this.#closeBody();
  }

  /** One attempt: the next chunk of the open body, opening one as needed. */
  async #step(): Promise<Uint8Array | null> {
    try {
      for (;;) {
        if (this.#finished) return null;
        if (this.#reachedEnd()) return await this.#finish();
        if (this.#open === undefined) {
          this.#open = await this.#openAt(this.#target!);
          if (this.#open === undefined) return null;
          this.#answerFrom = this.#offset;
        }
        const chunk = await this.#read(this.#open);
        if (chunk !== null) {
          if (chunk.byteLength === 0) continue;
          this.#offset += chunk.byteLength;
          this.#refreshed = false;
          if (this.#offset - this.#answerFrom >= PROGRESS_BYTES) {
            this.#failures = 0;
          }
          return chunk;
        }
        await this.#ended(this.#open);
        this.#failures = 0;
      }
    } catch (error) {
      this.#failures++;
      await this.#closeBody();
      throw error;
    }
  }

  /**
   * The next body bytes at or after the cursor, clipped at its end; empty
   * while they come before it; `null` when the body is done.
   */
  async #read(open: OpenBody): Promise<Uint8Array | null> {
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await open.deadline.race(open.reader.read());
    } catch (error) {
      throw open.deadline.explain(error, open.url);
    }
    if (result.done) return null;
    open.deadline.rearm(result.value.byteLength);
    let chunk = result.value;
    open.position += chunk.byteLength;
    this.#checkUnbounded(open);
    if (open.end !== undefined && open.position > open.end) {
      throw new RepoProtocolError(
        `the body goes on past byte ${open.end}, where its answer said it ends`,
        open.url,
      );
    }
    if (open.skip > 0) {
      const dropped = Math.min(open.skip, chunk.byteLength);
      open.skip -= dropped;
      chunk = chunk.subarray(dropped);
    }
    if (
      this.#end !== undefined && this.#offset + chunk.byteLength > this.#end
    ) {
      chunk = chunk.subarray(0, this.#end - this.#offset);
    }
    return chunk;
  }

  /** The open body has ended: done, resumable, or cut short. */
  async #ended(open: OpenBody): Promise<void> {
    await this.#closeBody();
    if (open.end !== undefined && open.position < open.end) {
      throw new RepoConnectionError(
        open.url,
        `the body ended at byte ${open.position} of ${open.end}`,
      );
    }
    if (open.whole) {
      if (open.end === undefined) this.#endedUnsaid(open);
      this.#finished = true;
    } else if (open.total !== undefined && open.position >= open.total) {
      this.#finished = true;
    }
  }

  /**
   * A whole body of unsaid length ended. Short of the size known, it is
   * taken for a drop (a close-delimited body that breaks off ends like a
   * whole one) and resumed, unless the answer before it ended at the same
   * byte: then its length is the file's, and {@linkcode expectTotal} judges.
   */
  #endedUnsaid(open: OpenBody): void {
    const length = open.position;
    const size = this.#known.answeredSize ?? this.#known.size;
    if (size !== null && length < size && this.#shortEnd !== length) {
      this.#shortEnd = length;
      throw new RepoConnectionError(
        open.url,
        `the body ended at byte ${length}, short of the ${size} bytes known, and no Content-Length said where it ends`,
      );
    }
    expectTotal(length, this.#known, open.url);
    this.#learnTotal(length);
  }

  /**
   * Stops a body that no `Content-Length` and no exact listed size bound
   * once it goes past `maxBytes`: an endless answer must not fill a disk.
   */
  #checkUnbounded(open: OpenBody): void {
    const max = this.context.maxBytes ?? DEFAULT_MAX_BYTES;
    const { size, tabular } = this.#known;
    if (
      open.end !== undefined || open.position <= max ||
      (size !== null && !tabular)
    ) return;
    throw new RepoProtocolError(
      `the answer said no Content-Length and goes on past maxBytes (${max} bytes), the most read of a file whose size is not known; the read stops there`,
      open.url,
    );
  }

  /** Sends the request for the bytes from the cursor on; `undefined` when there are none. */
  async #openAt(target: ResolvedUrl): Promise<OpenBody | undefined> {
    const { transport, repository, checked } = this.context;
    if (!checked.has(target)) {
      const problem = contentUrlProblem(target.url, repository);
      if (problem !== undefined) {
        throw new RepoProtocolError(
          `refusing to read the content URL: ${problem}`,
        );
      }
      checked.add(target);
    }
    const asked = { start: this.#offset, end: this.#end };
    const headers: Record<string, string> = {
      ...UNENCODED,
      ...(target.direct && isRepositoryUrl(target.url, repository)
        ? repositoryHeaders(
          this.context.token,
          this.context.tokenHeader,
        ) as Record<string, string>
        : {}),
    };
    const range = rangeFor(asked, this.#known);
    if (range !== undefined) headers.Range = range;
    Object.assign(headers, this.object.conditions());
    const deadline = new Deadline(transport.timeoutMs, this.signal);
    let response: Response | undefined;
    try {
      response = await deadline.fetch(transport, target.url, {
        headers,
        redirect: "manual",
      });
      deadline.rearm();
      this.object.check(response, target.url);
      const answer = await deadline.race(
        classifyAnswer(response, asked, this.#known, target),
      );
      this.object.pin(response);
      if (answer.total !== undefined) this.#learnTotal(answer.total);
      if (answer.kind === "none") {
        this.#finished = true;
        await cancelBody(response);
        deadline.dispose();
        return undefined;
      }
      return {
        reader: (response.body ?? new Response().body!).getReader(),
        deadline,
        url: target.url,
        position: answer.from,
        skip: answer.skip,
        end: answer.end,
        whole: answer.whole,
        total: answer.total,
      };
    } catch (error) {
      deadline.dispose();
      if (response !== undefined) await cancelBody(response);
      throw deadline.explain(error, target.url);
    }
  }

  /**
   * The file's size, as an answer gave it: every later answer of this read
   * must agree, and the `RepoFs` is told.
   */
  #learnTotal(total: number): void {
    if (this.#known.answeredSize === undefined) {
      this.#known = { ...this.file, answeredSize: total };
    }
    this.context.learnTotal(this.file.id, total);
  }

  async #closeBody(): Promise<void> {
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    open.deadline.dispose();
    await open.reader.cancel().catch(() => {});
  }
}

/**
 * The error a read gives up with once its retries ran out: a connection
 * error says how many attempts in a row brought no progress.
 */
function withoutProgress(error: unknown, cost: RetryCost): unknown {
  if (!(error instanceof RepoConnectionError)) return error;
  return new RepoConnectionError(
    error.url,
    `${error.reason}; gave up after ${cost.attempts} attempts in a row, none of which ended where it said or brought ${
      PROGRESS_BYTES / 1024
    } KiB`,
    { cause: error },
  );
}

async function cancelBody(response: Response): Promise<void> {
  if (response.body && !response.bodyUsed && !response.body.locked) {
    await response.body.cancel().catch(() => {});
  }
}

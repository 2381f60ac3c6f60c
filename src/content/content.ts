/**
 * Reading file content: buffered reads and streams, both through one
 * {@linkcode BodyCursor}. Ranges follow fsspec's rules; a file's size comes
 * from the listing, or, where the listing cannot be trusted for it
 * (ingested tabular files) or gave none, from the server's answers.
 *
 * @module
 */

import { BodyCursor, type CursorContext } from "./body_cursor.ts";
import { needsSize, planRange } from "./byte_range.ts";
import type { ContentFile } from "./content_file.ts";
import { SameObject } from "./same_object.ts";
import type { UrlResolver } from "../urls/download_urls.ts";
import type { Transport } from "../api/request.ts";
import type { RetryPolicy } from "../api/retry.ts";
import { Semaphore } from "../base/semaphore.ts";
import { whenAborted } from "../base/abort_callbacks.ts";

/** What a {@linkcode ContentReader} needs besides its resolver. */
export interface ContentOptions {
  /** fetch and the idle timeout */
  transport: Transport;
  /** retry policy */
  retry: RetryPolicy;
  /** the repository base (`.../api`), which decides what content URLs may be read */
  repository: string;
  /** API token: sent only when content comes from the repository itself */
  token?: string;
  /** the header that carries the token; `X-Repo-key` when absent */
  tokenHeader?: string;
  /** most buffered reads in flight */
  getConcurrency: number;
  /** the most bytes read of a body whose length nothing says; 64 GiB when absent */
  maxBytes?: number;
}

/** Reads bytes of files. */
export class ContentReader {
  readonly #sizes = new Map<number, number>();
  readonly #gets: Semaphore;
  readonly #context: CursorContext;

  /**
   * @param urls where content URLs come from
   * @param options transport, retries, repository, token and GET limit
   */
  constructor(urls: UrlResolver, readonly options: ContentOptions) {
    this.#gets = new Semaphore(options.getConcurrency);
    this.#context = {
      urls,
      transport: options.transport,
      retry: options.retry,
      repository: options.repository,
      checked: new WeakSet(),
      token: options.token,
      tokenHeader: options.tokenHeader,
      learnTotal: (id, total) => this.#sizes.set(id, total),
      maxBytes: options.maxBytes,
    };
  }

  /**
   * Bytes `start` to `end` (exclusive; negatives count from the end) of a
   * file; the whole file, however long, when both are absent. Every answer
   * must be of `object` (the first pins it): one handle's reads share one.
   */
  async read(
    file: ContentFile,
    start?: number | null,
    end?: number | null,
    signal?: AbortSignal,
    object: SameObject = new SameObject(),
  ): Promise<Uint8Array> {
    const task = async () => {
      const span = await this.#span(file, start, end, object, signal);
      return span === undefined
        ? new Uint8Array(0)
        : await this.#collect(file, span.first, span.last, object, signal);
    };
    return (await this.#gets.run(task, signal)).value;
  }

  /**
   * Bytes `start` to `end` of a file (as {@linkcode ContentReader.read}; by
   * default all of it) as a stream that holds one network chunk at a time;
   * a dropped or stalled connection resumes where it stopped. Aborting
   * `signal` errors the stream at once, whatever it has buffered. Every
   * answer must be of `object`, as for `read`.
   */
  stream(
    file: ContentFile,
    range: { start?: number | null; end?: number | null } = {},
    signal?: AbortSignal,
    object: SameObject = new SameObject(),
  ): ReadableStream<Uint8Array> {
    needsSize(range.start, range.end);
    let cursor: BodyCursor | undefined;
    let finished = false;
    let forget = () => {};
    const finish = async () => {
      finished = true;
      forget();
      await cursor?.close();
    };
    const open = async () => {
      const span = await this.#span(
        file,
        range.start,
        range.end,
        object,
        signal,
      );
      if (span === undefined || finished) return undefined;
      const { first: start, last: end } = span;
      return cursor = new BodyCursor(
        this.#context,
        file,
        { start, end },
        signal,
        object,
      );
    };
    return new ReadableStream<Uint8Array>({
      start(controller) {
        const onAbort = () => {
          controller.error(signal!.reason);
          void finish();
        };
        if (signal?.aborted) return onAbort();
        forget = whenAborted(signal, onAbort);
      },
      async pull(controller) {
        let chunk: Uint8Array | null;
        try {
          const reading = cursor ?? await open();
          chunk = reading ? await reading.next() : null;
        } catch (error) {
          await finish();
          throw error;
        }
        if (chunk !== null) return controller.enqueue(chunk);
        await finish();
        controller.close();
      },
      cancel: finish,
    }, { highWaterMark: 0 });
  }

  /**
   * Where bytes `start` to `end` lie in the file: from `first` up to `last`
   * (exclusive; to the end of the file when absent); `undefined` when the
   * range holds no byte.
   */
  async #span(
    file: ContentFile,
    start: number | null | undefined,
    end: number | null | undefined,
    object: SameObject,
    signal?: AbortSignal,
  ): Promise<{ first: number; last?: number } | undefined> {
    const sized = needsSize(start, end) ||
      (start ?? 0) < 0 && this.#knownSize(file) === undefined;
    const plan = planRange(
      start,
      end,
      sized
        ? await this.#trueSize(file, object, signal)
        : this.#knownSize(file),
    );
    if (plan.kind === "empty") return undefined;
    const size = this.#knownSize(file);
    const first = plan.kind === "suffix"
      ? Math.max(0, size! - plan.length)
      : plan.start;
    let last = plan.kind === "bounded" ? plan.end : undefined;
    if (size !== undefined) last = Math.min(last ?? size, size);
    return last !== undefined && first >= last ? undefined : { first, last };
  }

  /** The size the listing vouches for, or one an answer revealed. */
  #knownSize(file: ContentFile): number | undefined {
    if (file.size !== null && !file.tabular) return file.size;
    return this.#sizes.get(file.id);
  }

  /** The true size of a file: known, or learned from its first byte, or from all of it. */
  async #trueSize(
    file: ContentFile,
    object: SameObject,
    signal?: AbortSignal,
  ): Promise<number> {
    const known = this.#knownSize(file);
    if (known !== undefined) return known;
    await this.#collect(file, 0, 1, object, signal);
    return this.#knownSize(file) ??
      (await this.#collect(file, 0, undefined, object, signal)).byteLength;
  }

  /** Bytes `start` up to `end` (to the end of the file when absent), in one array. */
  async #collect(
    file: ContentFile,
    start: number,
    end: number | undefined,
    object: SameObject,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const cursor = new BodyCursor(
      this.#context,
      file,
      { start, end },
      signal,
      object,
    );
    try {
      const chunks: Uint8Array[] = [];
      for (let c; (c = await cursor.next()) !== null;) chunks.push(c);
      return concat(chunks);
    } finally {
      await cursor.close();
    }
  }
}

/** Concatenates a stream's chunks. */
export async function collect(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return concat(chunks);
}

/**
 * The chunks one after the other in one array (the chunk itself when there
 * is only one).
 */
export function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  if (chunks.length === 0) return new Uint8Array(0);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

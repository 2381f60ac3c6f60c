/**
 * Reading file content: bytes come from the URL a {@linkcode UrlResolver}
 * hands out, ranged reads are checked against what was asked, transient
 * failures are retried, and a URL the store refuses is re-resolved once.
 *
 * @module
 */

import {
  answeredSpan,
  type ContentRange,
  needsSize,
  parseContentRange,
  planRange,
  rangeHeader,
  type RangePlan,
} from "./byte_range.ts";
import type { ResolvedUrl, UrlResolver } from "./download_urls.ts";
import { RepoConnectionError, RepoProtocolError } from "./errors.ts";
import { failureFor, repositoryHeaders } from "./repo_api.ts";
import { Deadline, exchange, type Transport } from "./request.ts";
import { retrying, type RetryPolicy, TransientError } from "./retry.ts";
import { Semaphore } from "./semaphore.ts";

/** The store refused `url` (expired or bad signature), or the repository changed its mind about redirecting. */
class StaleUrlError extends Error {
  constructor(readonly final: Error, readonly url: string) {
    super(final.message);
  }
}

/**
 * What a {@linkcode ContentReader} needs besides its resolver.
 *
 * @example
 * ```ts
 * import type { ContentOptions } from "./content.ts";
 * import { RetryPolicy } from "./retry.ts";
 * const options: ContentOptions = { transport: { fetch, timeoutMs: 60_000 }, retry: new RetryPolicy() };
 * ```
 */
export interface ContentOptions {
  /** fetch and timeout */
  transport: Transport;
  /** retry policy */
  retry: RetryPolicy;
  /** API token: sent only when content comes from the repository itself */
  token?: string;
  /** most buffered reads in flight; unlimited when absent */
  getConcurrency?: number;
}

/**
 * Reads bytes of files by id.
 *
 * @example
 * ```ts ignore
 * import { ContentReader } from "./content.ts";
 * const reader = new ContentReader(urls, options);
 * const head = await reader.read(42, 0, 100);
 * ```
 */
export class ContentReader {
  readonly #sizes = new Map<number, number>();
  readonly #gets?: Semaphore;

  /**
   * @param urls where content URLs come from
   * @param options transport, retries, token and GET limit
   */
  constructor(readonly urls: UrlResolver, readonly options: ContentOptions) {
    if (options.getConcurrency !== undefined) {
      this.#gets = new Semaphore(options.getConcurrency);
    }
  }

  /**
   * Bytes `start` to `end` (exclusive; negatives count from the end) of a
   * file; the whole file, however long, when both are absent.
   */
  async read(
    fileId: number,
    start?: number | null,
    end?: number | null,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const task = async () => {
      const size = needsSize(start, end)
        ? await this.#trueSize(fileId, signal)
        : undefined;
      const plan = planRange(start, end, size);
      if (plan.kind === "empty") return new Uint8Array(0);
      return await this.#fetchWindow(fileId, plan, signal);
    };
    return this.#gets ? (await this.#gets.run(task)).value : await task();
  }

  /**
   * The file from `start` to its end as a stream that holds one network
   * chunk at a time; a dropped connection resumes where it stopped.
   */
  stream(
    fileId: number,
    start = 0,
    signal?: AbortSignal,
  ): ReadableStream<Uint8Array> {
    let offset = start;
    let open: OpenBody | undefined;
    let stale: string | undefined;
    let refreshed = false;
    const close = () => {
      open?.deadline.dispose();
      open?.reader.cancel().catch(() => {});
      open = undefined;
    };
    /** The next chunk; empty when the server stopped short of the end by design; null at the end. */
    const next = async (): Promise<Uint8Array | null> => {
      open ??= await this.#openAt(fileId, offset, stale, signal);
      const { reader, deadline, target, end, from } = open;
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw deadline.explain(error, target.url);
      }
      deadline.rearm();
      if (!chunk.done) {
        offset += chunk.value.byteLength;
        refreshed = false;
        return chunk.value;
      }
      close();
      if (end !== undefined && offset < end) {
        const reason = `the body ended at byte ${offset} of ${end}`;
        throw new TransientError(new RepoConnectionError(target.url, reason));
      }
      const total = this.#sizes.get(fileId);
      if (total === undefined || offset >= total) return null;
      if (offset === from) {
        throw new RepoProtocolError(
          `the server sent nothing from byte ${offset} of ${total}`,
          target.url,
        );
      }
      return new Uint8Array(0);
    };
    const attempt = async (): Promise<Uint8Array | null> => {
      try {
        return await next();
      } catch (error) {
        close();
        if (!(error instanceof StaleUrlError)) throw error;
        if (refreshed) throw error.final;
        refreshed = true;
        stale = error.url;
        return await attempt();
      }
    };
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        for (;;) {
          const chunk = await retrying(this.options.retry, signal, attempt);
          if (chunk === null) return controller.close();
          if (chunk.byteLength > 0) return controller.enqueue(chunk);
        }
      },
      cancel: close,
    });
  }

  /** The true size of a file: learned from an earlier answer, or probed. */
  async #trueSize(fileId: number, signal?: AbortSignal): Promise<number> {
    if (!this.#sizes.has(fileId)) {
      await this.#fetchWindow(
        fileId,
        { kind: "bounded", start: 0, end: 1 },
        signal,
      );
    }
    return this.#sizes.get(fileId) ??
      (await this.#fetchWindow(fileId, { kind: "from", start: 0 }, signal))
        .byteLength;
  }

  /** One buffered request for the plan's bytes, retried whole. */
  #fetchWindow(
    fileId: number,
    plan: Exclude<RangePlan, { kind: "empty" }>,
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const range = rangeHeader(plan);
    return this.#withUrl(
      fileId,
      (target) =>
        retrying(this.options.retry, signal, () =>
          exchange(
            this.options.transport,
            target.url,
            { headers: this.#headers(target, range) },
            signal,
            async (response) => {
              const url = target.url;
              if (response.status === 206) {
                const got = this.#learn(fileId, response, url);
                const span = answeredSpan(plan, got, url);
                const body = new Uint8Array(await response.arrayBuffer());
                if (body.byteLength !== span.length) {
                  const reason =
                    `asked ${range}, got ${body.byteLength} of ${span.length} bytes`;
                  throw new TransientError(
                    new RepoConnectionError(url, reason),
                  );
                }
                if (span.next >= (span.askedEnd ?? span.next)) return body;
                const rest = await this.#fetchWindow(fileId, {
                  kind: "bounded",
                  start: span.next,
                  end: span.askedEnd!,
                }, signal);
                const whole = new Uint8Array(body.byteLength + rest.byteLength);
                whole.set(body);
                whole.set(rest, body.byteLength);
                return whole;
              }
              if (response.status === 416) {
                this.#learn(fileId, response, url);
                return new Uint8Array(0);
              }
              if (response.status === 200) {
                const total = this.#learnLength(fileId, response);
                if (plan.kind !== "from") {
                  return await window(response, plan, total);
                }
                return plan.start === 0
                  ? new Uint8Array(await response.arrayBuffer())
                  : await collect(
                    response.body!.pipeThrough(dropFirst(plan.start)),
                  );
              }
              throw await this.#failure(response, target);
            },
          )),
      signal,
    );
  }

  async #openAt(
    fileId: number,
    offset: number,
    stale: string | undefined,
    signal?: AbortSignal,
  ): Promise<OpenBody> {
    const target = await this.urls.resolve(fileId, stale, signal);
    const range = offset > 0 ? `bytes=${offset}-` : undefined;
    const deadline = new Deadline(this.options.transport.timeoutMs, signal);
    try {
      const response = await this.options.transport.fetch(target.url, {
        headers: this.#headers(target, range),
        redirect: "manual",
        signal: deadline.signal,
      });
      let end: number | undefined;
      if (response.status === 206) {
        const got = this.#learn(fileId, response, target.url);
        const plan = { kind: "from", start: offset } as const;
        end = answeredSpan(plan, got, target.url).next;
      } else if (response.status === 200) {
        end = this.#learnLength(fileId, response);
      } else if (response.status === 416) {
        await response.body?.cancel();
        this.#learn(fileId, response, target.url);
        end = offset;
      } else {
        throw await this.#failure(response, target);
      }
      let body: ReadableStream<Uint8Array> = response.body ??
        new Response().body!;
      if (response.status === 200) body = body.pipeThrough(dropFirst(offset));
      return { reader: body.getReader(), deadline, target, end, from: offset };
    } catch (error) {
      deadline.dispose();
      throw deadline.explain(error, target.url);
    }
  }

  /** Reads through `target`, re-resolving it once if the store refuses it. */
  async #withUrl<T>(
    fileId: number,
    read: (target: ResolvedUrl) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    let stale: string;
    try {
      return await read(await this.urls.resolve(fileId, undefined, signal));
    } catch (error) {
      if (!(error instanceof StaleUrlError)) throw error;
      signal?.throwIfAborted();
      stale = error.url;
    }
    const fresh = await this.urls.resolve(fileId, stale, signal);
    try {
      return await read(fresh);
    } catch (error) {
      throw error instanceof StaleUrlError ? error.final : error;
    }
  }

  /** The token goes along only when the repository serves the bytes itself. */
  #headers(target: ResolvedUrl, range: string | undefined): HeadersInit {
    const headers: Record<string, string> = target.direct
      ? { ...repositoryHeaders(this.options.token) as Record<string, string> }
      : {};
    if (range !== undefined) headers.Range = range;
    return headers;
  }

  async #failure(response: Response, target: ResolvedUrl): Promise<Error> {
    const error = await failureFor(response, target.url);
    const redirected = response.status >= 300 && response.status < 400;
    const refused = response.status === 403 && !target.direct;
    return (redirected && target.direct) || refused
      ? new StaleUrlError(error, target.url)
      : error;
  }

  #learn(fileId: number, response: Response, url: string): ContentRange {
    const range = parseContentRange(response.headers.get("content-range"), url);
    if (range.total !== undefined) this.#sizes.set(fileId, range.total);
    return range;
  }

  #learnLength(fileId: number, response: Response): number | undefined {
    const length = response.headers.get("content-length");
    if (length === null || response.headers.has("content-encoding")) {
      return undefined;
    }
    this.#sizes.set(fileId, Number(length));
    return Number(length);
  }
}

interface OpenBody {
  reader: ReadableStreamDefaultReader<Uint8Array>;
  deadline: Deadline;
  target: ResolvedUrl;
  /** Where the body should end (exclusive), when the answer said. */
  end?: number;
  /** The offset it was opened at. */
  from: number;
}

/**
 * Concatenates a stream's chunks.
 *
 * @example
 * ```ts
 * import { collect } from "./content.ts";
 * const bytes = await collect(new Response("abc").body!);
 * console.log(bytes.byteLength); // 3
 * ```
 */
export async function collect(
  stream: ReadableStream<Uint8Array>,
): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The plan's bytes out of a whole-file answer to a ranged request. */
async function window(
  response: Response,
  plan: Exclude<RangePlan, { kind: "empty" | "from" }>,
  total: number | undefined,
): Promise<Uint8Array> {
  if (plan.kind === "suffix" && total === undefined) {
    const all = new Uint8Array(await response.arrayBuffer());
    return all.slice(Math.max(0, all.byteLength - plan.length));
  }
  const start = plan.kind === "suffix"
    ? Math.max(0, total! - plan.length)
    : plan.start;
  const wanted = plan.kind === "suffix" ? total! - start : plan.end - start;
  const body = response.body!.pipeThrough(dropFirst(start));
  const out = new Uint8Array(
    total === undefined ? wanted : Math.max(0, Math.min(wanted, total - start)),
  );
  const reader = body.getReader();
  let filled = 0;
  try {
    while (filled < out.byteLength) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, out.byteLength - filled);
      out.set(value.subarray(0, take), filled);
      filled += take;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return out.subarray(0, filled);
}

/** Passes a body on without its first `count` bytes. */
function dropFirst(count: number): TransformStream<Uint8Array, Uint8Array> {
  let left = count;
  return new TransformStream({
    transform(chunk, controller) {
      if (left >= chunk.byteLength) {
        left -= chunk.byteLength;
        return;
      }
      controller.enqueue(left === 0 ? chunk : chunk.subarray(left));
      left = 0;
    },
  });
}

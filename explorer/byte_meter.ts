/**
 * Counts the bytes of every answer body read through it, in the page and in
 * the pool's workers alike: a worker's counts reach the page on a
 * `BroadcastChannel`, so the status line can say what a preview cost.
 *
 * @module
 */

/** The channel the workers' counts travel on. */
const CHANNEL = "repo-fs-explorer-bytes";

/** A `fetch` that adds the length of every body chunk read to `count`. */
export function meteredFetch(
  inner: typeof fetch,
  count: (bytes: number) => void,
): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.body === null) return response;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          count(chunk.byteLength);
          controller.enqueue(chunk);
        },
      }),
    );
    const copy = new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperties(copy, {
      url: { value: response.url },
      redirected: { value: response.redirected },
    });
    return copy;
  };
}

/**
 * The page's meter: its own reads and its workers'. A worker's count comes
 * on another channel than its answer, so it may arrive after the preview
 * is shown: `onChange` hears every count, for a status line kept current.
 */
export class ByteMeter {
  #bytes = 0;
  readonly #channel = new BroadcastChannel(CHANNEL);
  /** Called after every count. */
  onChange: () => void = () => {};

  constructor() {
    this.#channel.onmessage = (event) => this.#add(Number(event.data));
  }

  /** The page's `fetch`, counted. */
  readonly fetch: typeof fetch = meteredFetch(
    globalThis.fetch.bind(globalThis),
    (bytes) => this.#add(bytes),
  );

  #add(bytes: number): void {
    this.#bytes += bytes;
    this.onChange();
  }

  /** Bytes counted since the last {@linkcode ByteMeter.reset}. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Starts counting from zero. */
  reset(): void {
    this.#bytes = 0;
  }
}

/** In a worker: counts its reads and sends the counts to the page. */
export function meterWorker(): void {
  const channel = new BroadcastChannel(CHANNEL);
  globalThis.fetch = meteredFetch(
    globalThis.fetch.bind(globalThis),
    (bytes) => channel.postMessage(bytes),
  );
}

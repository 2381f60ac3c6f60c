/**
 * The two ends of the channel between a `RepoFsPool` and one of its
 * workers, in every runtime: Web Workers where the runtime has them (Deno,
 * Bun, browsers), `node:worker_threads` in Node. Messages are structured
 * clones both ways, and a worker's answers can transfer their buffers.
 * `node:worker_threads` is loaded only where there is no `Worker`.
 *
 * @module
 */

import type { Worker as NodeWorker } from "node:worker_threads";
import type { FromWorker, ToWorker } from "./pool_protocol.ts";

/**
 * What a pool hears from one of its workers.
 *
 * @example
 * ```ts
 * import type { WorkerListener } from "./worker_port.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const heard: string[] = [];
 * const listener: WorkerListener = {
 *   message: (message) => heard.push(message.type),
 *   failed: (reason) => heard.push(`failed: ${reason}`),
 * };
 * listener.message({ type: "ready" });
 * listener.failed("Error: no worker today");
 * deepStrictEqual(heard, ["ready", "failed: Error: no worker today"]);
 * ```
 */
export interface WorkerListener {
  /** A message the worker posted. */
  message(message: FromWorker): void;
  /** The worker could not load, threw, exited or sent an unreadable message. */
  failed(reason: string): void;
}

/**
 * The pool's end of one worker.
 *
 * @example
 * ```ts
 * import { startWorker } from "./worker_port.ts";
 * import { match } from "node:assert/strict";
 * const failed = Promise.withResolvers<string>();
 * const worker = startWorker(new URL("../../workers/range_worker.ts", import.meta.url), {
 *   message: () => {},
 *   failed: failed.resolve,
 * });
 * worker.post({ type: "crash", reason: "asked to crash" });
 * match(await failed.promise, /asked to crash/);
 * worker.terminate();
 * ```
 */
export interface PoolWorker {
  /** Sends `message` to the worker. */
  post(message: ToWorker): void;
  /** Ends the worker at once; its listener hears nothing more. */
  terminate(): void;
}

/**
 * Starts the worker module at `url` and reports what it says to `listener`.
 * A string that is not a URL is, in Node, a file path.
 *
 * @example
 * ```ts
 * import { startWorker } from "./worker_port.ts";
 * import { strictEqual } from "node:assert/strict";
 * const ready = Promise.withResolvers<string>();
 * const worker = startWorker(new URL("../../workers/range_worker.ts", import.meta.url), {
 *   message: (message) => ready.resolve(message.type),
 *   failed: ready.reject,
 * });
 * strictEqual(await ready.promise, "ready");
 * worker.terminate();
 * ```
 */
export function startWorker(
  url: string | URL,
  listener: WorkerListener,
): PoolWorker {
  return typeof globalThis.Worker === "function"
    ? webWorker(url, listener)
    : nodeWorker(url, listener);
}

function webWorker(url: string | URL, listener: WorkerListener): PoolWorker {
  const worker = new Worker(url, { type: "module" });
  let ended = false;
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    if (!ended) listener.message(event.data);
  };
  worker.onerror = (event: ErrorEvent) => {
    event.preventDefault();
    if (!ended) listener.failed(event.message || "unknown error");
  };
  worker.onmessageerror = () => {
    if (!ended) listener.failed("unreadable message");
  };
  return {
    post: (message) => worker.postMessage(message),
    terminate() {
      ended = true;
      worker.terminate();
    },
  };
}

/** A `node:worker_threads` worker; messages posted before it exists wait. */
function nodeWorker(url: string | URL, listener: WorkerListener): PoolWorker {
  let worker: NodeWorker | undefined;
  let ended = false;
  const waiting: ToWorker[] = [];
  const fail = (reason: string) => {
    if (!ended) listener.failed(reason);
  };
  import("node:worker_threads").then(({ Worker }) => {
    if (ended) return;
    worker = new Worker(
      typeof url === "string" && URL.canParse(url) ? new URL(url) : url,
    );
    worker.on("message", (message: FromWorker) => {
      if (!ended) listener.message(message);
    });
    worker.on("error", (error: unknown) =>
      fail(
        error instanceof Error ? `${error.name}: ${error.message}` : `${error}`,
      ));
    worker.on("messageerror", () => fail("unreadable message"));
    worker.on("exit", (code: number) => fail(`it exited with code ${code}`));
    for (const message of waiting.splice(0)) worker.postMessage(message);
  }).catch((error: unknown) =>
    fail(`no worker could be started at ${url}: ${error}`)
  );
  return {
    post(message) {
      if (worker) worker.postMessage(message);
      else waiting.push(message);
    },
    terminate() {
      ended = true;
      void worker?.terminate();
    },
  };
}

/**
 * A worker's end of its pool.
 *
 * @example
 * ```ts
 * import type { PoolPort } from "./worker_port.ts";
 * import type { FromWorker } from "./pool_protocol.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * const sent: [FromWorker, Transferable[]][] = [];
 * const port: PoolPort = { post: (message, transfer = []) => sent.push([message, transfer]) };
 * const bytes = new Uint8Array(4);
 * port.post({ type: "bytes", job: 1, bytes }, [bytes.buffer]);
 * deepStrictEqual(sent, [[{ type: "bytes", job: 1, bytes }, [bytes.buffer]]]);
 * ```
 */
export interface PoolPort {
  /** Sends `message` to the pool, moving the buffers in `transfer`. */
  post(message: FromWorker, transfer?: Transferable[]): void;
}

/** The part of a Web Worker's global scope the channel uses. */
interface WebWorkerScope {
  postMessage(message: FromWorker, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
}

/**
 * Called by a worker module as it loads: the pool's messages go to
 * `receive`, from now on, and the port it resolves to answers them.
 *
 * @example
 * ```ts
 * import { startWorker } from "./worker_port.ts";
 * import { deepStrictEqual } from "node:assert/strict";
 * import { pathToFileURL } from "node:url";
 * const module = await Deno.makeTempFile({ suffix: ".js" });
 * await Deno.writeTextFile(module, `
 *   import { connectToPool } from ${JSON.stringify(import.meta.resolve("./worker_port.ts"))};
 *   const pool = await connectToPool((message) => {
 *     if (message.type !== "cat") return;
 *     const bytes = new TextEncoder().encode(message.path);
 *     pool.post({ type: "bytes", job: message.job, bytes }, [bytes.buffer]);
 *   });
 *   pool.post({ type: "ready" });
 * `);
 * const heard = Promise.withResolvers<unknown>();
 * const worker = startWorker(pathToFileURL(module), {
 *   message: (message) => message.type === "bytes" && heard.resolve(message),
 *   failed: heard.reject,
 * });
 * worker.post({ type: "cat", job: 7, path: "echo" });
 * deepStrictEqual(await heard.promise, {
 *   type: "bytes",
 *   job: 7,
 *   bytes: new TextEncoder().encode("echo"),
 * });
 * worker.terminate();
 * await Deno.remove(module);
 * ```
 *
 * @throws {Error} when it runs outside a worker
 */
export async function connectToPool(
  receive: (message: ToWorker) => void,
): Promise<PoolPort> {
  const scope = globalThis as unknown as Partial<WebWorkerScope>;
  if (typeof scope.postMessage === "function") {
    scope.onmessage = (event) => receive(event.data);
    return {
      post: (message, transfer = []) => scope.postMessage!(message, transfer),
    };
  }
  const { parentPort } = await import("node:worker_threads");
  if (parentPort === null) {
    throw new Error(
      "connectToPool was called on the main thread; it runs in a worker of a RepoFsPool",
    );
  }
  parentPort.on("message", receive);
  return {
    post: (message, transfer = []) =>
      parentPort.postMessage(
        message,
        transfer as Parameters<typeof parentPort.postMessage>[1],
      ),
  };
}

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

/** What a pool hears from one of its workers. */
export interface WorkerListener {
  /** A message the worker posted. */
  message(message: FromWorker): void;
  /** The worker could not load, threw, exited or sent an unreadable message. */
  failed(reason: string): void;
}

/** The pool's end of one worker. */
export interface PoolWorker {
  /** Sends `message` to the worker. */
  post(message: ToWorker): void;
  /** Ends the worker at once; its listener hears nothing more. */
  terminate(): void;
}

/**
 * Starts the worker module at `url` and reports what it says to `listener`.
 * A string that is not a URL is, in Node, a file path.
 */
export function startWorker(
  url: string | URL,
  listener: WorkerListener,
): PoolWorker {
  return typeof globalThis.Worker === "function"
    ? webWorker(url, listener)
    : nodeWorker(url, listener);
}

/**
 * A Web Worker, created in a task of its own (see {@linkcode oneATask}):
 * Deno's `new Worker` holds the calling thread until the worker's isolate
 * exists, 20–50 ms each. Messages posted before it exists wait.
 */
function webWorker(url: string | URL, listener: WorkerListener): PoolWorker {
  let worker: Worker | undefined;
  let ended = false;
  const waiting: ToWorker[] = [];
  const fail = (reason: string) => {
    if (!ended) listener.failed(reason);
  };
  const cancel = oneATask(() => {
    try {
      worker = new Worker(url, { type: "module" });
    } catch (error) {
      return fail(
        error instanceof Error ? `${error.name}: ${error.message}` : `${error}`,
      );
    }
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      if (!ended) listener.message(event.data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      fail(event.message || "unknown error");
    };
    worker.onmessageerror = () => fail("unreadable message");
    for (const message of waiting.splice(0)) worker.postMessage(message);
  });
  return {
    post(message) {
      if (worker) worker.postMessage(message);
      else waiting.push(message);
    },
    terminate() {
      ended = true;
      cancel();
      worker?.terminate();
    },
  };
}

/** Work waiting for {@linkcode oneATask}, first come first run. */
const tasks = new Set<() => void>();
let taskTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Runs `work` in a task of its own, after those queued before it, so that
 * between two the thread answers its other events (the replies of the
 * requests a pool's first read sends meanwhile). Returns what takes it
 * back from the queue.
 */
function oneATask(work: () => void): () => void {
  tasks.add(work);
  taskTimer ??= setTimeout(runOne);
  return () => {
    tasks.delete(work);
    if (tasks.size === 0) {
      clearTimeout(taskTimer);
      taskTimer = undefined;
    }
  };
}

function runOne(): void {
  const [work] = tasks;
  tasks.delete(work);
  taskTimer = tasks.size > 0 ? setTimeout(runOne) : undefined;
  work();
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

/** A worker's end of its pool. */
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

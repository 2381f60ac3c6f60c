/**
 * A worker of a `RepoFsPool`: it holds a `RepoFs` rebuilt from the main
 * thread's serialised form, reads bytes and array parts, and asks the main
 * thread for content URLs so the pool keeps one HEAD budget and one URL per
 * file. It says `ready` once its module has loaded, so that the pool can
 * tell a worker that cannot start from one that crashed.
 *
 * It runs as a Web Worker (Deno, Bun, browsers) or a `node:worker_threads`
 * worker (Node), and imports nothing of `node:` nor touches `Deno` as it
 * loads: a download job loads the code that writes files, and an array job
 * (or a `prepare` ahead of one) the `node:zlib` codecs where there is
 * `node:zlib`.
 *
 * @module
 */

import { DownloadUrls } from "../src/urls/download_urls.ts";
import type { ContentKey } from "../src/base/types.ts";
import type { ArrayPartReader } from "../src/zarr/array_part.ts";
import type { PartKind } from "../src/formats/source.ts";
import type { AccessAnswer } from "../src/api/repo_api.ts";
import {
  Batch,
  flattenError,
  type FromWorker,
  reviveError,
  type ToWorker,
  transferables,
  type UrlAsk,
} from "../src/pool/pool_protocol.ts";
import { connectToPool, type PoolPort } from "../src/pool/worker_port.ts";
import { INTERNALS, type RepoFs, sharingUrls } from "../src/repo_fs.ts";
import { SameObject } from "../src/content/same_object.ts";
import { checkSerialized } from "../src/serialize.ts";
import { whenAborted } from "../src/base/abort_callbacks.ts";

/** Bytes of progress a download gathers before it reports them. */
const PROGRESS_STEP = 1 << 20;

let pool: PoolPort;
let fs: RepoFs | undefined;
const cancels = new Map<number, AbortController>();
let asks = 0;
const asked = new Map<
  number,
  { resolve: (url: AccessAnswer) => void; reject: (e: Error) => void }
>();
/** Asks sent to the main thread and neither answered nor withdrawn. */
let awaited = 0;
/**
 * While the main thread has this many of this worker's asks, new ones
 * wait and go later in one message: twice `headConcurrency`, so that the
 * pool's HEAD budget is never idle for want of an ask.
 */
let keepAsked = Infinity;
const unsent = new Batch<number, UrlAsk>((batch) => {
  awaited += batch.length;
  post({ type: "resolve", asks: batch });
}, () => awaited >= keepAsked);
const withdrawals = new Batch<number, number>((batch) =>
  post({ type: "withdraw", asks: batch })
);

/**
 * Asks the main thread, which holds the pool's HEAD budget; the asks of
 * one microtask run go in one message. Aborting `signal` withdraws the
 * ask there too.
 */
function askMainThread(
  file: ContentKey,
  stale: string | undefined,
  signal: AbortSignal,
): Promise<AccessAnswer> {
  const ask = ++asks;
  return new Promise((resolve, reject) => {
    const forget = whenAborted(signal, () => {
      if (!asked.delete(ask)) return;
      if (!unsent.take(ask)) {
        awaited--;
        withdrawals.add(ask, ask);
        // After the other asks this abort withdraws are taken back too.
        queueMicrotask(() => unsent.flush());
      }
      reject(signal.reason);
    });
    asked.set(ask, {
      resolve: (url) => (forget(), resolve(url)),
      reject: (error) => (forget(), reject(error)),
    });
    unsent.add(ask, { ask, file, stale });
  });
}

function post(message: FromWorker, transfer: Transferable[] = []): void {
  pool.post(message, transfer);
}

async function run(job: number, work: () => Promise<FromWorker>) {
  try {
    const answer = await work();
    const payload = answer.type === "bytes"
      ? answer.bytes
      : answer.type === "array"
      ? answer.part.data
      : answer.type === "raster"
      ? answer.raster.data
      : answer.type === "parquet"
      ? Object.values(answer.rows).filter((values) =>
        ArrayBuffer.isView(values)
      )
      : undefined;
    post(answer, transferables(payload));
  } catch (error) {
    post({ type: "failed", job, error: flattenError(error) });
  }
}

/** Runs `work` with a signal that a `cancel` message for `job` aborts. */
async function cancellable<T>(
  job: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  cancels.set(job, controller);
  try {
    return await work(controller.signal);
  } finally {
    cancels.delete(job);
  }
}

function download(
  { job, path, target, temporary, resume, keepIfAborted }: Extract<
    ToWorker,
    { type: "download" }
  >,
): Promise<FromWorker> {
  let unreported = 0;
  const report = () => {
    if (unreported > 0) post({ type: "progress", job, bytes: unreported });
    unreported = 0;
  };
  return cancellable(job, async (signal) => {
    const result = await fs!.downloadToFile(path, target, {
      signal,
      temporary,
      resume,
      keepIfAborted,
      onBytes: (bytes) => {
        unreported += bytes;
        if (unreported >= PROGRESS_STEP) report();
      },
    });
    report();
    return { type: "downloaded", job, result };
  });
}

/** The worker's URL cache, from `init` on. */
let urls: DownloadUrls | undefined;

/** `load`, run on the first call only. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => loading ??= load();
}

/**
 * The code that reads each kind of part, loaded once: on `prepare`, while
 * the main thread reads the file's metadata, or else on the first part.
 */
const code = {
  array: once(async () => {
    const [module, zlib] = await Promise.all([
      import("../src/zarr/array_part.ts"),
      import("../src/zarr/zlib_codecs.ts"),
    ]);
    await zlib.useSyncZlibCodecs();
    return module;
  }),
  parquet: once(() => import("../src/formats/parquet/read_part.ts")),
  raster: once(() => import("../src/formats/geotiff/read_window.ts")),
} satisfies Record<PartKind, () => Promise<unknown>>;

/** zarrita and the array reader, one for all the array parts of the worker. */
let arrayReader: Promise<ArrayPartReader> | undefined;

function receive(message: ToWorker): void {
  switch (message.type) {
    case "init": {
      urls = new DownloadUrls(askMainThread, Number.MAX_SAFE_INTEGER);
      checkSerialized(message.serialized);
      keepAsked = 2 * message.serialized.options.headConcurrency;
      urls.load(message.serialized.urls);
      fs = sharingUrls(message.serialized, urls);
      return;
    }
    case "prepare":
      // A failed load fails the parts that need it.
      code[message.kind]().catch(() => {});
      return;
    case "known":
      urls?.load(message.urls);
      return;
    case "resolved": {
      for (const { ask, url, error } of message.answers) {
        const waiting = asked.get(ask);
        if (waiting === undefined) continue; // withdrawn meanwhile
        asked.delete(ask);
        awaited--;
        if (url) waiting.resolve(url);
        else waiting.reject(reviveError(error!));
      }
      unsent.flush();
      return;
    }
    case "cat":
      return void run(
        message.job,
        () =>
          cancellable(message.job, async (signal) => {
            const object = new SameObject(message.pinned);
            const bytes = await fs![INTERNALS].read(message.path, {
              start: message.start,
              end: message.end,
              signal,
            }, object);
            return {
              type: "bytes",
              job: message.job,
              bytes,
              pinned: object.pinned,
            };
          }),
      );
    case "array":
      return void run(
        message.job,
        () =>
          cancellable(message.job, async (signal) => {
            arrayReader ??= code.array().then(({ ArrayPartReader }) =>
              new ArrayPartReader(fs!)
            );
            const reader = await arrayReader;
            const part = await reader.read(message.request, { signal });
            return { type: "array", job: message.job, part };
          }),
      );
    case "parquet":
      return void run(
        message.job,
        () =>
          cancellable(message.job, async (signal) => {
            const { readPart } = await code.parquet();
            const rows = await readPart(fs!, message.request, signal);
            return { type: "parquet", job: message.job, rows };
          }),
      );
    case "raster":
      return void run(
        message.job,
        () =>
          cancellable(message.job, async (signal) => {
            const { readPart } = await code.raster();
            const raster = await readPart(fs!, message.request, signal);
            return { type: "raster", job: message.job, raster };
          }),
      );
    case "download":
      return void run(message.job, () => download(message));
    case "cancel":
      cancels.get(message.job)?.abort(
        new DOMException("The job was cancelled", "AbortError"),
      );
      return;
    case "crash":
      setTimeout(() => {
        throw new Error(message.reason);
      });
  }
}

connectToPool(receive).then((port) => {
  pool = port;
  post({ type: "ready" });
});

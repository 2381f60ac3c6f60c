// src/pool/worker_port.ts: both ends of a worker.
import { deepStrictEqual, match, strictEqual } from "node:assert/strict";
import { pathToFileURL } from "node:url";
import type { FromWorker } from "../src/pool/pool_protocol.ts";
import {
  type PoolPort,
  startWorker,
  type WorkerListener,
} from "../src/pool/worker_port.ts";

Deno.test("WorkerListener hears a worker", () => {
  const heard: string[] = [];
  const listener: WorkerListener = {
    message: (message) => heard.push(message.type),
    failed: (reason) => heard.push(`failed: ${reason}`),
  };
  listener.message({ type: "ready" });
  listener.failed("Error: no worker today");
  deepStrictEqual(heard, ["ready", "failed: Error: no worker today"]);
});

Deno.test("PoolWorker is the pool's end", async () => {
  const failed = Promise.withResolvers<string>();
  const worker = startWorker(
    new URL("../workers/range_worker.ts", import.meta.url),
    {
      message: () => {},
      failed: failed.resolve,
    },
  );
  worker.post({ type: "crash", reason: "asked to crash" });
  match(await failed.promise, /asked to crash/);
  worker.terminate();
});

Deno.test("startWorker reports what the worker says", async () => {
  const ready = Promise.withResolvers<string>();
  const worker = startWorker(
    new URL("../workers/range_worker.ts", import.meta.url),
    {
      message: (message) => ready.resolve(message.type),
      failed: ready.reject,
    },
  );
  strictEqual(await ready.promise, "ready");
  worker.terminate();
});

Deno.test("PoolPort is the worker's end", () => {
  const sent: [FromWorker, Transferable[]][] = [];
  const port: PoolPort = {
    post: (message, transfer = []) => sent.push([message, transfer]),
  };
  const bytes = new Uint8Array(4);
  port.post({ type: "bytes", job: 1, bytes }, [bytes.buffer]);
  deepStrictEqual(sent, [[{ type: "bytes", job: 1, bytes }, [bytes.buffer]]]);
});

Deno.test("connectToPool sends the pool's messages to receive", async () => {
  const module = await Deno.makeTempFile({ suffix: ".js" });
  await Deno.writeTextFile(
    module,
    `
    import { connectToPool } from ${
      JSON.stringify(import.meta.resolve("../src/pool/worker_port.ts"))
    };
    const pool = await connectToPool((message) => {
      if (message.type !== "cat") return;
      const bytes = new TextEncoder().encode(message.path);
      pool.post({ type: "bytes", job: message.job, bytes }, [bytes.buffer]);
    });
    pool.post({ type: "ready" });
  `,
  );
  const heard = Promise.withResolvers<unknown>();
  const worker = startWorker(pathToFileURL(module), {
    message: (message) => message.type === "bytes" && heard.resolve(message),
    failed: heard.reject,
  });
  worker.post({ type: "cat", job: 7, path: "echo" });
  deepStrictEqual(await heard.promise, {
    type: "bytes",
    job: 7,
    bytes: new TextEncoder().encode("echo"),
  });
  worker.terminate();
  await Deno.remove(module);
});

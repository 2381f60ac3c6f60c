/**
 * A `redis-server` of its own on a free loopback port, for the coordinator's
 * tests and benchmark: Debian's package, nothing persisted. Without
 * `redis-server` on the PATH, {@linkcode startRedis} warns loudly and
 * resolves to `undefined`, so that callers skip.
 */

import { freePort, runnable, stopOnce } from "./local_servers.ts";

/** A running `redis-server`. */
export interface RedisServer extends AsyncDisposable {
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  /** Stops it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

const WARNING = [
  "",
  "!!! redis-server is not installed: the coordinator tests are SKIPPED.",
  "!!! Install it with `apt-get install redis-server` (.ci/run does).",
  "",
].join("\n");

/** Whether `redis-server` can be run here. */
export function hasRedis(): Promise<boolean> {
  return runnable("redis-server", ["--version"], WARNING);
}

/** Starts `redis-server` and resolves once it answers PING. */
export async function startRedis(): Promise<RedisServer> {
  const port = freePort();
  const child = new Deno.Command("redis-server", {
    args: [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const stop = stopOnce(child);
  try {
    await waitForPong(port);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** Resolves once the server on `port` answers `PING`; fails after 10 s. */
async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const connection = await Deno.connect({ hostname: "127.0.0.1", port });
      try {
        await connection.write(new TextEncoder().encode("PING\r\n"));
        const buffer = new Uint8Array(16);
        const read = await connection.read(buffer);
        const answer = new TextDecoder().decode(buffer.subarray(0, read ?? 0));
        if (answer.startsWith("+PONG")) return;
      } finally {
        connection.close();
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`redis-server on port ${port} did not answer PING`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

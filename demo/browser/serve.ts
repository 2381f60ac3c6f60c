/**
 * The browser demo's web server: the pages of this folder, the bundled
 * scripts, what the page reads (`/config.json`: the emulator's host and
 * dataset id) and the emulator's request counters (`/counters.json`, reset
 * with `POST /counters/reset`).
 *
 * @module
 */

import type { Emulator } from "../../emulator.ts";
import { SAMPLE_STORE } from "../../src/emulator/sample.ts";

/** The pages of this folder. */
const PAGES = ["index.html", "harness.html"];

/** What `bundleDemo` writes: entry points and chunks. */
const SCRIPT = /^[\w-]+\.js$/;

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};

/**
 * The running demo server. Close it with `await using` or `close()`.
 *
 * @example
 * ```ts ignore
 * import type { DemoServer } from "./serve.ts";
 * declare const server: DemoServer;
 * console.log(`${server.url}index.html`);
 * ```
 */
export interface DemoServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Stops serving. */
  close(): Promise<void>;
}

/**
 * Serves the demo for `emulator`, with the scripts `bundleDemo` wrote to
 * `bundleDir`.
 *
 * @example
 * ```ts ignore
 * import { serveDemo } from "./serve.ts";
 * import { bundleDemo } from "./bundle.ts";
 * import { startEmulator } from "../../emulator.ts";
 * import { sampleDataset } from "../../src/emulator/sample.ts";
 * await using emu = await startEmulator({ files: await sampleDataset(16) });
 * const dir = await Deno.makeTempDir();
 * await bundleDemo(dir);
 * await using server = serveDemo({ emulator: emu, bundleDir: dir });
 * const config = await (await fetch(`${server.url}config.json`)).json();
 * ```
 *
 * @param options the emulator whose dataset the page reads, where the
 * bundles are, and the port (default: any free one)
 */
export function serveDemo(options: {
  emulator: Emulator;
  bundleDir: string;
  port?: number;
}): DemoServer {
  const { emulator, bundleDir } = options;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen() {} },
    async (request) => {
      const name = new URL(request.url).pathname.slice(1) || "index.html";
      if (name === "config.json") {
        return Response.json({
          host: emulator.host,
          pid: emulator.pid,
          store: SAMPLE_STORE,
        });
      }
      if (name === "counters.json") return Response.json(emulator.counters);
      if (name === "counters/reset" && request.method === "POST") {
        emulator.resetCounters();
        return Response.json(emulator.counters);
      }
      const file = PAGES.includes(name)
        ? new URL(name, import.meta.url)
        : SCRIPT.test(name)
        ? `${bundleDir}/${name}`
        : undefined;
      if (file === undefined) return notFound(name);
      let body: Uint8Array<ArrayBuffer>;
      try {
        body = await Deno.readFile(file);
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return notFound(name);
        throw error;
      }
      return new Response(body, {
        headers: {
          "content-type": TYPES[name.split(".").pop()!],
          "cache-control": "no-store",
        },
      });
    },
  );
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    close,
    [Symbol.asyncDispose]: close,
  };
}

function notFound(name: string): Response {
  return new Response(`no ${name} here`, { status: 404 });
}

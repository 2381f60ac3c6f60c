/**
 * The `explore` command: serves the dataset explorer page on 127.0.0.1 for
 * the dataset the command line names, until Ctrl-C or SIGTERM. The page
 * reads the dataset itself, from the browser; it learns which dataset (and
 * the token) from `explore.json`, which is served only to an address
 * carrying the run's random key.
 *
 * @module
 */

import { join } from "node:path";
import { integerOption } from "./args.ts";
import type { Context } from "./context.ts";
import { onStopSignal } from "./signals.ts";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};

/** `explore [--port N]`: serves the page, prints its address, waits for a stop signal. */
export async function explore(context: Context): Promise<number> {
  const port = integerOption(context.line, "port", { min: 0, max: 65535 }) ?? 0;
  const fs = await context.dataset();
  await fs.info("");
  const { options } = fs.serialize();
  const pages = await explorerPages();
  const key = crypto.randomUUID();
  const config = {
    host: options.host,
    pid: options.pid,
    version: options.version,
    tokenHeader: options.tokenHeader,
    ...(options.token === undefined ? {} : { token: options.token }),
  };
  const stop = Promise.withResolvers<void>();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port, onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      const name = url.pathname.slice(1) || "index.html";
      if (name === "explore.json") {
        return url.searchParams.get("key") === key
          ? Response.json(config, { headers: { "cache-control": "no-store" } })
          : new Response("wrong or missing key", { status: 403 });
      }
      const type = TYPES[name.slice(name.lastIndexOf(".") + 1)];
      if (!/^[\w.-]+$/.test(name) || type === undefined) {
        return new Response("not found", { status: 404 });
      }
      try {
        const body = await Deno.readFile(join(pages.dir, name));
        return new Response(body, { headers: { "content-type": type } });
      } catch {
        return new Response("not found", { status: 404 });
      }
    },
  );
  const dispose = onStopSignal(() => stop.resolve());
  try {
    const address = `http://127.0.0.1:${server.addr.port}/?key=${key}`;
    if (context.json) await context.out.json({ url: address });
    else {
      await context.out.print(
        `The explorer of ${options.pid} is at\n  ${address}\nStop with Ctrl-C.`,
      );
    }
    await stop.promise;
  } finally {
    dispose();
    await server.shutdown();
    await pages.dispose();
  }
  return 0;
}

/** The page's sources, beside this module in a checkout (the packages leave them out). */
const BUILD = new URL("../../explorer/build.ts", import.meta.url);

/** The built page: `dist/explorer/` when built, else a build made now. */
async function explorerPages(): Promise<
  { dir: string; dispose(): Promise<void> }
> {
  if (BUILD.protocol !== "file:") {
    throw new Error(
      "repo-fs explore runs from a checkout of repo-fs (deno install --global -A -n repo-fs ./cli.ts): the packages do not hold the page's sources",
    );
  }
  const { buildExplorer, EXPLORER_DIST }: {
    buildExplorer(outDir: string): Promise<void>;
    EXPLORER_DIST: string;
  } = await import(BUILD.href);
  try {
    await Deno.stat(join(EXPLORER_DIST, "main.js"));
    return { dir: EXPLORER_DIST, dispose: () => Promise.resolve() };
  } catch {
    const dir = await Deno.makeTempDir({ prefix: "repo-fs-explorer-" });
    await buildExplorer(dir);
    return { dir, dispose: () => Deno.remove(dir, { recursive: true }) };
  }
}

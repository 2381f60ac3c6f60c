/**
 * `deno task demo:browser`: starts the repository emulator on the sample
 * dataset, bundles the page and the pool's worker for the browser, and
 * serves them until Ctrl-C.
 *
 *     deno task demo:browser [-- --port 8000] [--days 64] [--no-redirect]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { startEmulator } from "../../emulator.ts";
import { sampleDataset } from "../../src/emulator/sample.ts";
import { bundleDemo } from "./bundle.ts";
import { serveDemo } from "./serve.ts";

const { values: args } = parseArgs({
  args: Deno.args[0] === "--" ? Deno.args.slice(1) : Deno.args,
  options: {
    port: { type: "string", default: "8000" },
    days: { type: "string", default: "64" },
    "no-redirect": { type: "boolean", default: false },
  },
});

const bundleDir = await Deno.makeTempDir({ prefix: "repo-fs-demo-" });
console.log("Bundling the page and the worker ...");
await bundleDemo(bundleDir);
const emulator = await startEmulator({
  files: await sampleDataset(Number(args.days)),
  faults: { latencyMs: 10, redirect: !args["no-redirect"] },
});
const server = serveDemo({ emulator, bundleDir, port: Number(args.port) });
console.log(
  `Repository emulator at ${emulator.host} (${
    args["no-redirect"] ? "serving bytes itself" : "redirecting to its store"
  })\nOpen ${server.url} in a browser. Stop with Ctrl-C.`,
);

Deno.addSignalListener("SIGINT", async () => {
  await server.close();
  await emulator.close();
  await Deno.remove(bundleDir, { recursive: true });
  Deno.exit(0);
});

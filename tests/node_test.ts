/**
 * The npm package as Node users get it: `deno pack` builds it, npm installs
 * it into a new Node project, and a plain `.mjs` file (tests/node/read.mjs)
 * reads the emulator started here through a pool of 2 workers.
 */

import { deepStrictEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator.ts";
import {
  assertShipped,
  packageDataset,
  packWithProject,
  run,
  sum,
  TEMPERATURE,
} from "./npm_package.ts";

const READER = fileURLToPath(new URL("./node/read.mjs", import.meta.url));

const nodeVersion = await run("node", ["--version"]).catch(() => undefined);
if (nodeVersion === undefined) {
  console.warn("SKIPPED tests/node_test.ts: `node` is not on the PATH");
}

Deno.test({
  name:
    "Node: the package deno pack builds reads the tree, a file, a range, a stream and an array through a pool of 2",
  ignore: nodeVersion === undefined,
  async fn() {
    const { files, big, tree } = await packageDataset("Node");
    await using emu = await startEmulator({ files });
    const temp = await Deno.makeTempDir({ prefix: "repo-fs-node-" });
    try {
      const { tarball, project } = await packWithProject(temp);
      await run("npm", [
        "install",
        "--no-audit",
        "--no-fund",
        "--no-update-notifier",
        "--prefer-offline",
        "--loglevel=error",
        tarball,
      ], { cwd: project });
      await Deno.copyFile(READER, join(project, "read.mjs"));
      const output = await run("node", ["read.mjs"], {
        cwd: project,
        env: { REPO_HOST: emu.host, REPO_PID: emu.pid },
      });
      const read = JSON.parse(output);

      equal(read.workers, 2);
      deepStrictEqual(read.tree, tree);
      equal(read.file, "# read from Node");
      equal(read.range, "read ");
      deepStrictEqual(read.streamed, { bytes: big.byteLength, sum: sum(big) });
      deepStrictEqual(read.array, { shape: [6, 4], data: [...TEMPERATURE] });
      await assertShipped(project, read.worker);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});

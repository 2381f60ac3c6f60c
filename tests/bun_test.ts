/**
 * The npm package as Bun users get it: `deno pack` builds it, `bun add`
 * installs it into a new project, and a plain `.mjs` file
 * (tests/bun/read.mjs), run by Bun, reads the emulator started here on the
 * main thread and through a pool of 2 workers, downloads a file, and fails
 * two reads on purpose. The process must then exit by itself: nothing the
 * pool started may keep Bun alive after `pool.close()`.
 *
 * Bun is the one on `PATH`, else the one `npx --yes bun@1` fetches from the
 * npm registry; with neither the test is skipped, loudly.
 */

import { deepStrictEqual, equal, match } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator.ts";
import { bounded, filesBelow } from "./support.ts";
import {
  assertShipped,
  packageDataset,
  packWithProject,
  run,
  sum,
  TEMPERATURE,
} from "./npm_package.ts";

const READER = fileURLToPath(new URL("./bun/read.mjs", import.meta.url));

/**
 * The Bun executable: `bun` from `PATH`, else the binary of the npm
 * package `bun@1` (which `npx` fetches once, then keeps in its cache);
 * `undefined` when neither runs.
 */
async function findBun(): Promise<string | undefined> {
  const onPath = await run("bun", ["--version"]).catch(() => undefined);
  if (onPath !== undefined) return "bun";
  const printed = await run("npx", [
    "--yes",
    "bun@1",
    "--eval",
    "console.log(process.execPath)",
  ], { env: { npm_config_update_notifier: "false" } }).catch(() => undefined);
  return printed?.trim().split("\n").at(-1) || undefined;
}

const BUN = await findBun();
if (BUN === undefined) {
  console.warn(
    "\n!!! tests/bun_test.ts SKIPPED: neither `bun` on PATH nor `npx --yes bun@1` !!!\n" +
      "!!! (npm registry) can provide Bun: the Bun path of repo-fs is NOT tested. !!!\n",
  );
}
/** What Bun is told: no telemetry, no colours in what it prints. */
const BUN_ENV = { DO_NOT_TRACK: "1", NO_COLOR: "1" };

Deno.test({
  name:
    "Bun: the package deno pack builds reads the tree, a file, a range, a stream, an array and a download through a pool of 2, and fails by class",
  ignore: BUN === undefined,
  async fn() {
    const bun = BUN!;
    const { files, big, tree } = await packageDataset("Bun");
    await using emu = await startEmulator({ files });
    const temp = await Deno.makeTempDir({ prefix: "repo-fs-bun-" });
    try {
      const { tarball, project } = await packWithProject(temp);
      await run(bun, ["add", "--no-progress", tarball], {
        cwd: project,
        env: BUN_ENV,
      });
      await Deno.copyFile(READER, join(project, "read.mjs"));
      const downloads = join(temp, "downloads");
      await Deno.mkdir(downloads);
      const output = await runToExit(bun, ["read.mjs"], {
        cwd: project,
        env: {
          ...BUN_ENV,
          REPO_HOST: emu.host,
          REPO_PID: emu.pid,
          DOWNLOAD_DIR: downloads,
        },
      });
      const read = JSON.parse(output);

      match(read.runtime, /^bun 1\./);
      equal(read.workers, 2);
      deepStrictEqual(read.tree, tree);
      deepStrictEqual(read.ls, [
        { name: "data/big.bin", size: big.byteLength, type: "file" },
      ]);
      equal(read.file, "# read from Bun");
      equal(read.range, "read ");
      const whole = { bytes: big.byteLength, sum: sum(big) };
      deepStrictEqual(read.streamed, whole);
      deepStrictEqual(read.array, { shape: [6, 4], data: [...TEMPERATURE] });
      deepStrictEqual(read.downloaded, {
        bytes: big.byteLength,
        verified: "md5",
        written: whole,
      });
      deepStrictEqual(
        await Deno.readFile(join(downloads, "big.bin")),
        big,
        "the downloaded file has the served bytes",
      );
      deepStrictEqual(
        await filesBelow(downloads),
        ["big.bin"],
        "no temporary file is left beside the download",
      );

      const missing = {
        name: "NotFoundError",
        constructor: "NotFoundError",
        instanceOf: ["NotFoundError"],
        code: "ENOENT",
        message: 'No such file or directory in the dataset: "data/missing.bin"',
      };
      deepStrictEqual(read.failures.missingInPool, missing);
      deepStrictEqual(read.failures.missingOnMain, missing);
      for (const where of ["restrictedInPool", "restrictedOnMain"]) {
        const { message, ...restricted } = read.failures[where];
        deepStrictEqual(restricted, {
          name: "RepoHttpError",
          constructor: "RepoHttpError",
          instanceOf: ["RepoHttpError"],
          status: 403,
        }, where);
        match(
          message,
          /^HTTP 403 from .*\(the file is restricted; no API token was sent\)$/,
          where,
        );
      }

      // .bun-tag: Bun's own mark of a package it extracted.
      await assertShipped(project, read.worker, [".bun-tag"]);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});

/**
 * Runs `command` to its exit, which must come by itself: its stdout, or an
 * error with its stderr when it fails, or when it is still running after
 * support.ts's hang bound (something kept it alive); it is then killed.
 */
async function runToExit(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<string> {
  const decoder = new TextDecoder();
  const child = new Deno.Command(command, {
    args,
    ...options,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  let result;
  try {
    result = await bounded(output, `${command} ${args.join(" ")}`);
  } catch (error) {
    child.kill("SIGKILL");
    const { stdout, stderr } = await output;
    throw new Error(
      `${(error as Error).message}; killed. Its stdout:\n${
        decoder.decode(stdout)
      }\n` +
        `Its stderr:\n${decoder.decode(stderr)}`,
    );
  }
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited with ${result.code}:\n${
        decoder.decode(result.stderr)
      }`,
    );
  }
  return decoder.decode(result.stdout);
}

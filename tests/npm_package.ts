/**
 * What the tests of the npm package share (tests/node_test.ts,
 * tests/bun_test.ts): running a program to its end, and the package as
 * `deno pack` builds it from this checkout.
 */

import { deepStrictEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { EmulatorOptions } from "../emulator.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { filesBelow, patterned } from "./support.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const decoder = new TextDecoder();

/** Runs `command`; its stdout, or an error carrying its stderr when it fails. */
export async function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    ...options,
    stdin: "null",
  }).output();
  if (code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited with ${code}:\n${
        decoder.decode(stderr)
      }`,
    );
  }
  return decoder.decode(stdout);
}

/**
 * Builds the npm package of this checkout with `deno pack` into `dir` and
 * makes `dir/project`, a new ES-module project to install it into; the
 * tarball's and the project's paths. (`deno pack` takes untracked files of
 * the repository root too: keep scratch files elsewhere.)
 */
export async function packWithProject(
  dir: string,
): Promise<{ tarball: string; project: string }> {
  const tarball = join(dir, "repo-fs.tgz");
  await run(Deno.execPath(), ["pack", "--allow-dirty", "-o", tarball], {
    cwd: REPO,
    env: { NO_COLOR: "1" },
  });
  const project = join(dir, "project");
  await Deno.mkdir(project);
  await Deno.writeTextFile(
    join(project, "package.json"),
    JSON.stringify({ name: "reader", private: true, type: "module" }),
  );
  return { tarball, project };
}

/**
 * Checks the package installed in `project`: compiled modules, their
 * types, `package.json` and the README, and nothing else (but `ignored`,
 * what the package manager adds itself), the pool's worker among them, and
 * `worker` (the path the reader found for the `./worker` export) the
 * compiled worker.
 */
export async function assertShipped(
  project: string,
  worker: string,
  ignored: string[] = [],
): Promise<void> {
  ok(
    worker.endsWith("/node_modules/@x/repo-fs/workers/range_worker.js"),
    `the ./worker export is the compiled worker: ${worker}`,
  );
  const shipped = (await filesBelow(join(project, "node_modules/@x/repo-fs")))
    .filter((file) => !ignored.includes(file));
  deepStrictEqual(
    shipped.filter((file) =>
      !/\.(js|d\.ts)$/.test(file) && file !== "package.json" &&
      file !== "README.md" && !/^docs\/[^/]+\.md$/.test(file)
    ),
    [],
    "only compiled modules, their types, package.json, the README and the docs it links",
  );
  ok(shipped.includes("workers/range_worker.js"));
  ok(shipped.includes("src/zarr/zlib_codecs.js"));
}

/** A checksum the `.mjs` readers compute the same way: the sum of the bytes, mod 2^32. */
export function sum(bytes: Uint8Array): number {
  let total = 0;
  for (const byte of bytes) total = (total + byte) >>> 0;
  return total;
}

/** The values of the array the readers read, 6 × 4 in chunks of 2 × 3. */
export const TEMPERATURE = ramp(Float32Array, 6 * 4, 0.5, -2);

/**
 * The dataset the package's readers are served: a README naming
 * `runtime`, a file of 300,000 bytes (`big`), a restricted file and a
 * gzip-compressed Zarr array of {@linkcode TEMPERATURE}; `tree` is every
 * path of it, directories included, sorted.
 */
export async function packageDataset(runtime: string): Promise<{
  files: NonNullable<EmulatorOptions["files"]>;
  big: Uint8Array;
  tree: string[];
}> {
  const big = patterned(300_000, 4);
  const files = {
    "README.md": `# read from ${runtime}`,
    "data/big.bin": big,
    "secret.bin": { content: "classified", restricted: true },
    ...await buildZarrStore([{
      path: "temperature",
      data: TEMPERATURE,
      shape: [6, 4],
      chunks: [2, 3],
      compressor: "gzip",
    }], { format: 2, prefix: "climate.zarr" }),
  };
  const tree = [
    "README.md",
    "climate.zarr",
    "climate.zarr/.zgroup",
    "climate.zarr/temperature",
    "climate.zarr/temperature/.zarray",
    ...["0.0", "0.1", "1.0", "1.1", "2.0", "2.1"].map((chunk) =>
      `climate.zarr/temperature/${chunk}`
    ),
    "data",
    "data/big.bin",
    "secret.bin",
  ];
  return { files, big, tree };
}

/**
 * The fault matrix through a pool's workers and the command line as a process
 * of its own (slow: left out of `deno task test:fast`).
 */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RepoFsPool } from "../mod.ts";
import type { Emulator } from "../emulator.ts";
import { getArray } from "../zarr.ts";
import {
  CliFailure,
  DATA,
  dataset,
  faultMatrix,
  GRID,
  RANGE,
  type Surface,
  TIMEOUT_MS,
  TOKEN,
} from "./fault_matrix.ts";

/** The CLI keeps its default backoff; enough retries for the 5xx burst. */
const CLI_RETRIES = 4;

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(REPO, "cli.ts");
const decoder = new TextDecoder();

async function withPool(
  emu: Emulator,
  use: (pool: RepoFsPool) => Promise<void>,
): Promise<void> {
  await using pool = new RepoFsPool(dataset(emu), { workers: 2 });
  await use(pool);
}

function cli(emu: Emulator, args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      CLI,
      "--host",
      emu.host,
      "--pid",
      emu.pid,
      "--timeout-ms",
      String(TIMEOUT_MS),
      "--retries",
      String(CLI_RETRIES),
      ...args,
    ],
    cwd: REPO,
    env: { REPO_API_TOKEN: TOKEN, NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
}

const SURFACES: Surface[] = [
  {
    name: "pool catFile",
    ranged: false,
    read: (emu) =>
      withPool(emu, async (pool) => {
        deepStrictEqual(await pool.catFile("data.bin"), DATA);
      }),
  },
  {
    name: "pool catRanges",
    ranged: true,
    read: (emu) =>
      withPool(emu, async (pool) => {
        const [range, tail] = await pool.catRanges([
          { path: "data.bin", ...RANGE },
          { path: "data.bin", start: -100 },
        ]);
        deepStrictEqual(range, DATA.slice(RANGE.start, RANGE.end));
        deepStrictEqual(tail, DATA.slice(-100));
      }),
  },
  {
    name: "getArray through a pool",
    ranged: false,
    read: (emu) =>
      withPool(emu, async (pool) => {
        const { data, shape } = await getArray(pool, "grid.zarr", "grid");
        deepStrictEqual(shape, [32, 32]);
        deepStrictEqual(data, GRID);
      }),
  },
  {
    name: "CLI cat",
    ranged: false,
    async read(emu) {
      const { code, stdout, stderr } = await cli(emu, ["cat", "data.bin"]);
      if (code !== 0) throw new CliFailure(code, decoder.decode(stderr));
      deepStrictEqual(stdout, DATA);
    },
  },
  {
    name: "CLI get",
    ranged: false,
    async read(emu) {
      const out = await Deno.makeTempDir();
      try {
        const { code, stderr } = await cli(emu, [
          "get",
          "*.bin",
          "--out",
          out,
        ]);
        const names = [];
        for await (const entry of Deno.readDir(out)) names.push(entry.name);
        ok(
          names.every((name) => name === "data.bin" || name === "empty.bin"),
          `only real names are left: ${names}`,
        );
        if (names.includes("data.bin")) {
          deepStrictEqual(await Deno.readFile(join(out, "data.bin")), DATA);
        }
        if (names.includes("empty.bin")) {
          equal((await Deno.stat(join(out, "empty.bin"))).size, 0);
        }
        if (code !== 0) throw new CliFailure(code, decoder.decode(stderr));
        deepStrictEqual(names.sort(), ["data.bin", "empty.bin"]);
      } finally {
        await Deno.remove(out, { recursive: true });
      }
    },
  },
];

faultMatrix("fault matrix through workers and the CLI", SURFACES);

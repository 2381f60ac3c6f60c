import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../emulator.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const SCRIPT = join(REPO, "tests/fixtures/script_recipe.ts");

/** The permission flags of docs/script.md's recipe, placeholders filled in. */
async function recipeFlags(fill: Record<string, string>): Promise<string[]> {
  const doc = await Deno.readTextFile(join(REPO, "docs/script.md"));
  const block = /<!-- recipe -->\s*```sh\n([\s\S]*?)```/.exec(doc)![1];
  return block.split(/\s+\\?\s*/).filter((word) => word.startsWith("--"))
    .map((flag) =>
      flag.replace(/[A-Z_]{3,}/g, (name) => {
        ok(name in fill, `a value for ${name}`);
        return fill[name];
      })
    );
}

/** Runs the user's script with `flags`, as `deno run` would from a shell. */
async function runScript(flags: string[], args: string[]) {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", ...flags, SCRIPT, ...args],
    cwd: REPO,
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code,
    stdout: decoder.decode(stdout),
    stderr: decoder.decode(stderr),
  };
}

async function setup() {
  const emu = await startEmulator({ sample: true });
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  const out = join(tmp, "out");
  const cache = join(tmp, "cache");
  await Deno.mkdir(out);
  const fill = {
    REPO_HOST: new URL(emu.host).host,
    STORE_HOST: new URL(emu.storeOrigin).host,
    LIBRARY: REPO,
    OUT: out,
    CACHE: cache,
  };
  return {
    emu,
    out,
    cache,
    fill,
    args: [emu.host, emu.pid, out, cache],
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

Deno.test("the script recipe's flags are enough: reading, a pool, downloadToFile and urlCacheDir", async () => {
  await using t = await setup();
  const flags = await recipeFlags(t.fill);
  equal(flags.length, 3, flags.join(" "));
  const run = await runScript(flags, t.args);
  equal(run.code, 0, run.stderr);
  equal(
    run.stdout.split("\n").slice(1).join("\n"),
    [
      "# Sample climate dataset",
      "tables/stations.tab: 41 bytes",
      "downloaded 31 bytes, verified by md5",
      "",
    ].join("\n"),
  );
  ok(/^\d+ files$/.test(run.stdout.split("\n")[0]), run.stdout);
  equal(
    await Deno.readTextFile(join(t.out, "methods.txt")),
    "Methods: pseudo-random fields.\n",
  );
  equal((await Array.fromAsync(Deno.readDir(t.cache))).length, 1);
});

Deno.test("without read access to the library, the pool says which flag to add, once, with no WorkerCrashedError", async () => {
  await using t = await setup();
  const flags = (await recipeFlags(t.fill)).map((flag) =>
    flag.replace(`${REPO},`, "")
  );
  const run = await runScript(flags, t.args);
  equal(run.code, 1);
  ok(
    run.stderr.includes(
      `NotCapable: A RepoFsPool worker needs read access to "${REPO}/workers/range_worker.ts": run deno with --allow-read=${REPO} `,
    ),
    run.stderr,
  );
  ok(!run.stderr.includes("WorkerCrashedError"), run.stderr);
  equal(run.stderr.split("Uncaught (in worker").length, 2, "one start");
});

Deno.test("without net access to the object store, the error names the flag and the store's address", async () => {
  await using t = await setup();
  const flags = (await recipeFlags(t.fill)).map((flag) =>
    flag.replace(`,${t.fill.STORE_HOST}`, "")
  );
  const run = await runScript(flags, t.args);
  equal(run.code, 1);
  ok(
    run.stderr.includes(
      `Requires net access to "${t.fill.STORE_HOST}", run again with the --allow-net flag`,
    ),
    run.stderr,
  );
});

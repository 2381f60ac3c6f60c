import {
  deepStrictEqual,
  equal,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RepoFs } from "../mod.ts";
import { parseShard, shardFromEnvironment, shardOf } from "../fleet.ts";
import { chunkShard, getArray } from "../zarr.ts";
import { startEmulator } from "../emulator.ts";
import { SAMPLE_STORE, sampleDataset } from "../src/emulator/sample.ts";
import { filesBelow, patterned, runCli } from "./support.ts";
import { SHARD_VARIABLES } from "../src/fleet/shards.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const decoder = new TextDecoder();

/** Deterministic numbers in [0, 1). */
function lcg(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** `count` files with sizes from 0 to 1 MB, some unknown (`null`). */
function listing(count: number): { name: string; size: number | null }[] {
  const random = lcg(count);
  return Array.from({ length: count }, (_, i) => {
    const roll = random();
    const size = roll < 0.05
      ? null
      : roll < 0.1
      ? 0
      : Math.floor(random() ** 3 * 1_000_000);
    return { name: `d${i % 7}/f${i}.bin`, size };
  });
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = lcg(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

const names = (files: { name: string }[]) => files.map((file) => file.name);
const bytes = (files: { size: number | null }[]) =>
  files.reduce((sum, file) => sum + (file.size ?? 0), 0);

Deno.test("shardOf gives the same shares whatever the listing order", () => {
  const files = listing(300);
  for (const count of [1, 2, 3, 7, 16]) {
    for (let index = 0; index < count; index++) {
      const shard = { index, count };
      const expected = names(shardOf(files, shard));
      deepStrictEqual(names(shardOf([...files].reverse(), shard)), expected);
      deepStrictEqual(names(shardOf(shuffled(files, count), shard)), expected);
      deepStrictEqual(expected, [...expected].sort(), "in path order");
    }
  }
});

Deno.test("shardOf's shares are disjoint, complete and balanced within the largest file", () => {
  const files = listing(500);
  const largest = Math.max(...files.map((file) => file.size ?? 0));
  for (const count of [1, 2, 4, 9, 32]) {
    const shares = Array.from(
      { length: count },
      (_, index) => shardOf(files, { index, count }),
    );
    const all = shares.flatMap(names);
    deepStrictEqual(all.sort(), names(files).sort(), "each file exactly once");
    const loads = shares.map(bytes);
    ok(
      Math.max(...loads) - Math.min(...loads) <= largest,
      `${count} shares: ${loads}`,
    );
  }
});

Deno.test("shardOf deals files without bytes out evenly, and leaves extra shares empty", () => {
  const empty = Array.from({ length: 10 }, (_, i) => ({
    name: `e${i}`,
    size: i % 2 === 0 ? 0 : null,
  }));
  deepStrictEqual(
    [0, 1, 2, 3].map((index) => shardOf(empty, { index, count: 4 }).length),
    [3, 3, 2, 2],
  );
  const three = [
    { name: "a", size: 5 },
    { name: "b", size: 9 },
    { name: "c", size: 1 },
  ];
  const shares = [0, 1, 2, 3, 4].map((index) =>
    names(shardOf(three, { index, count: 5 }))
  );
  deepStrictEqual(shares, [["b"], ["a"], ["c"], [], []]);
  deepStrictEqual(shardOf([], { index: 0, count: 3 }), []);
  throws(() => shardOf(three, { index: 5, count: 5 }), RangeError);
});

Deno.test("parseShard reads I/N and says what is wrong with anything else", () => {
  deepStrictEqual(parseShard("0/1"), { index: 0, count: 1 });
  deepStrictEqual(parseShard("15/16"), { index: 15, count: 16 });
  throws(() => parseShard("4/4"), {
    message: "share 4 of 4 does not exist: shares are 0-based, 0/4 to 3/4",
  });
  throws(() => parseShard("0/0"), {
    message: "the number of shares must be at least 1, got 0",
  });
  for (
    const bad of ["", "1", "-1/4", "1/4.5", "a/b", "1 / 4", "auto", "1/4/"]
  ) {
    throws(() => parseShard(bad), {
      message: `a share is written I/N, two integers such as 0/4, got ${
        JSON.stringify(bad)
      }`,
    });
  }
  throws(() => parseShard("99999999999999999999/1"), RangeError);
});

Deno.test("shardFromEnvironment reads Slurm job arrays", () => {
  const slurm = (
    id: number,
    array: { min: number; max: number; step?: number; count?: number },
  ) =>
    shardFromEnvironment({
      SLURM_ARRAY_TASK_ID: String(id),
      SLURM_ARRAY_TASK_MIN: String(array.min),
      SLURM_ARRAY_TASK_MAX: String(array.max),
      SLURM_ARRAY_TASK_STEP: String(array.step ?? 1),
      ...(array.count === undefined
        ? {}
        : { SLURM_ARRAY_TASK_COUNT: String(array.count) }),
    });
  // --array=0-3, --array=1-4, --array=0-30:10
  deepStrictEqual(slurm(2, { min: 0, max: 3, count: 4 }), {
    index: 2,
    count: 4,
  });
  deepStrictEqual(slurm(1, { min: 1, max: 4, count: 4 }), {
    index: 0,
    count: 4,
  });
  deepStrictEqual(slurm(20, { min: 0, max: 30, step: 10, count: 4 }), {
    index: 2,
    count: 4,
  });
  // Without SLURM_ARRAY_TASK_COUNT, the count comes from MIN, MAX and STEP.
  deepStrictEqual(slurm(4, { min: 1, max: 4 }), { index: 3, count: 4 });
  // Only the id and the count: the id is the share.
  deepStrictEqual(
    shardFromEnvironment({
      SLURM_ARRAY_TASK_ID: "5",
      SLURM_ARRAY_TASK_COUNT: "6",
    }),
    { index: 5, count: 6 },
  );
  // --array=1,2,9: indexes that are no range.
  throws(() => slurm(9, { min: 1, max: 9, count: 3 }), /not evenly spaced/);
  throws(
    () => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: "3" }),
    /a Slurm job array: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX/,
  );
  throws(
    () =>
      shardFromEnvironment({
        SLURM_ARRAY_TASK_ID: "x",
        SLURM_ARRAY_TASK_COUNT: "4",
      }),
    /SLURM_ARRAY_TASK_ID must be a non-negative integer, got "x"/,
  );
});

Deno.test("shardFromEnvironment reads Kubernetes Indexed Jobs and REPO_FS_SHARD", () => {
  deepStrictEqual(
    shardFromEnvironment({
      JOB_COMPLETION_INDEX: "3",
      REPO_FS_SHARD_COUNT: "4",
    }),
    { index: 3, count: 4 },
  );
  throws(
    () => shardFromEnvironment({ JOB_COMPLETION_INDEX: "3" }),
    /a Kubernetes Indexed Job: JOB_COMPLETION_INDEX is set but REPO_FS_SHARD_COUNT is not/,
  );
  throws(
    () =>
      shardFromEnvironment({
        JOB_COMPLETION_INDEX: "4",
        REPO_FS_SHARD_COUNT: "4",
      }),
    /share 4 of 4 does not exist/,
  );
  // REPO_FS_SHARD wins over what an engine set.
  deepStrictEqual(
    shardFromEnvironment({
      REPO_FS_SHARD: "1/2",
      SLURM_ARRAY_TASK_ID: "0",
      SLURM_ARRAY_TASK_COUNT: "8",
    }),
    { index: 1, count: 2 },
  );
  throws(
    () => shardFromEnvironment({ REPO_FS_SHARD: "2/2" }),
    /^Error: REPO_FS_SHARD: share 2 of 2 does not exist/,
  );
  const none =
    "no job array in the environment: expected SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX with REPO_FS_SHARD_COUNT (a Kubernetes Indexed Job), or REPO_FS_SHARD=I/N";
  throws(() => shardFromEnvironment({}), { message: none });
  throws(
    () => shardFromEnvironment({ SLURM_ARRAY_TASK_ID: "", REPO_FS_SHARD: "" }),
    { message: none },
  );
});

Deno.test("chunkShard cuts the first axis at chunk boundaries, balanced, disjoint and complete", () => {
  const [length, chunk] = [365, 30];
  for (let count = 1; count <= 20; count++) {
    const runs = Array.from({ length: count }, (_, index) => {
      const selection = chunkShard([length, 4, 5], [chunk, 2, 5], {
        index,
        count,
      });
      deepStrictEqual(selection.slice(1), [null, null]);
      return selection[0]!;
    });
    strictEqual(runs[0].start, 0);
    strictEqual(runs[count - 1].stop, length);
    for (let i = 1; i < count; i++) {
      strictEqual(runs[i].start, runs[i - 1].stop);
    }
    for (const run of runs) strictEqual(run.start % chunk, 0);
    const chunks = runs.map((run) => Math.ceil((run.stop - run.start) / chunk));
    ok(Math.max(...chunks) - Math.min(...chunks) <= 1, `${count}: ${chunks}`);
    if (count > 13) {
      strictEqual(chunks.filter((n) => n === 0).length, count - 13);
    }
  }
  deepStrictEqual(chunkShard([10], [4], { index: 1, count: 2 }), [
    { start: 4, stop: 10, step: null },
  ]);
  throws(() => chunkShard([], [], { index: 0, count: 1 }), RangeError);
  throws(() => chunkShard([10], [4], { index: 2, count: 2 }), RangeError);
});

/** A dataset of files of many sizes, an empty one among them. */
function dataset(): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const random = lcg(42);
  for (let i = 0; i < 23; i++) {
    const size = Math.floor(random() ** 2 * 200_000);
    files[`run ${i % 3}/part-${String(i).padStart(2, "0")}.bin`] = patterned(
      size,
      i,
    );
  }
  files["empty.txt"] = new Uint8Array(0);
  files["README.md"] = new TextEncoder().encode("# shards\n");
  return files;
}

Deno.test("four `get --shard i/4` processes fetch the dataset between them, each file once", async () => {
  const files = dataset();
  await using emu = await startEmulator({ files });
  const tmp = await Deno.makeTempDir();
  try {
    const target = ["--host", emu.host, "--pid", emu.pid];
    const outs = [0, 1, 2, 3].map((i) => join(tmp, `share${i}`));
    const runs = await Promise.all(
      outs.map((out, i) =>
        runCli([...target, "get", "**", "--shard", `${i}/4`, "--out", out])
      ),
    );
    const found = new Map<string, number>();
    for (const [i, run] of runs.entries()) {
      equal(run.code, 0, run.stderr);
      const got = await filesBelow(outs[i]);
      ok(
        run.stderr.startsWith(`share ${i}/4: ${got.length} of 25 files, `),
        run.stderr,
      );
      for (const path of got) found.set(path, (found.get(path) ?? 0) + 1);
      for (const path of got) {
        deepStrictEqual(await Deno.readFile(join(outs[i], path)), files[path]);
      }
    }
    deepStrictEqual([...found.keys()].sort(), Object.keys(files).sort());
    deepStrictEqual([...new Set(found.values())], [1], "disjoint");

    // --resume works on a share as on the whole.
    const again = await runCli([
      ...target,
      "--json",
      "get",
      "**",
      "--shard",
      "2/4",
      "--resume",
      "--out",
      outs[2],
    ]);
    const summary = JSON.parse(again.stdout);
    deepStrictEqual(
      [summary.selected, summary.downloaded, summary.skipped],
      [(await filesBelow(outs[2])).length, 0, summary.selected],
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("`get --shard auto` takes its share from a Slurm job array's environment", async () => {
  await using emu = await startEmulator({ files: dataset() });
  const plan = (shard: string, env?: Record<string, string>) =>
    runCli([
      ...["--host", emu.host, "--pid", emu.pid, "--json"],
      ...["get", "**", "--dry-run", "--shard", shard],
    ], env);
  // sbatch --array=1-3: the second task is share 1 of 3.
  const [auto, explicit] = await Promise.all([
    plan("auto", {
      SLURM_ARRAY_TASK_ID: "2",
      SLURM_ARRAY_TASK_MIN: "1",
      SLURM_ARRAY_TASK_MAX: "3",
      SLURM_ARRAY_TASK_STEP: "1",
      SLURM_ARRAY_TASK_COUNT: "3",
    }),
    plan("1/3"),
  ]);
  equal(auto.code, 0, auto.stderr);
  ok(auto.stderr.startsWith("share 1/3: "), auto.stderr);
  const paths = (stdout: string) =>
    JSON.parse(stdout).files.map((file: { path: string }) => file.path);
  ok(paths(auto.stdout).length > 0);
  deepStrictEqual(paths(auto.stdout), paths(explicit.stdout));
});

Deno.test("`get --shard` with no job array or a share that does not exist is bad usage", async () => {
  const host = ["--host", "http://127.0.0.1:9", "--pid", "doi:10.5072/FK2/X"];
  const [none, outside] = await Promise.all([
    runCli([...host, "get", "**", "--out", "x", "--shard", "auto"]),
    runCli([...host, "get", "**", "--out", "x", "--shard", "4/4"]),
  ]);
  equal(none.code, 2);
  equal(
    none.stderr,
    "repo-fs: --shard auto: no job array in the environment: expected SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX with REPO_FS_SHARD_COUNT (a Kubernetes Indexed Job), or REPO_FS_SHARD=I/N (see repo-fs get --help)\n",
  );
  equal(outside.code, 2);
  equal(
    outside.stderr,
    "repo-fs: --shard 4/4: share 4 of 4 does not exist: shares are 0-based, 0/4 to 3/4 (see repo-fs get --help)\n",
  );
});

Deno.test("demo/fleet.ts: two processes' statistics combine into those of one read", async () => {
  await using emu = await startEmulator({ files: await sampleDataset(24) });
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-net",
      "--allow-read",
      "--allow-env",
      "--allow-run",
      join(REPO, "demo/fleet.ts"),
      ...["--host", emu.host, "--pid", emu.pid, "--shards", "2", "--json"],
      ...["--workers", "1"],
    ],
    env: { REPO_FS_COORDINATOR: "", REPO_API_TOKEN: "" },
    stdin: "null",
  }).output();
  equal(code, 0, decoder.decode(stderr));
  const { shares, combined } = JSON.parse(decoder.decode(stdout));
  deepStrictEqual(shares.map((share: { shard: string }) => share.shard), [
    "0/2",
    "1/2",
  ]);
  ok(shares.every((share: { count: number }) => share.count > 0));

  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { data } = await getArray(fs, SAMPLE_STORE, "temperature");
  const values = data as Float32Array;
  let [sum, min, max] = [0, Infinity, -Infinity];
  for (const value of values) {
    sum += value;
    min = Math.min(min, value);
    max = Math.max(max, value);
  }
  deepStrictEqual(
    [combined.count, combined.min, combined.max],
    [values.length, min, max],
  );
  ok(Math.abs(combined.sum - sum) <= 1e-9 * Math.abs(sum), `${combined.sum}`);
});

Deno.test("shard variables include SLURM's", () => {
  ok(SHARD_VARIABLES.includes("SLURM_ARRAY_TASK_ID"));
});

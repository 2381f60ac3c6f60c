/**
 * Splitting work between processes that do not talk to each other: share I
 * of N of a list of files ({@linkcode shardOf}) or of a Zarr array's chunk
 * grid ({@linkcode chunkShard}), where I and N come from the command line
 * ({@linkcode parseShard}) or from a job array's environment
 * ({@linkcode shardFromEnvironment}). Every function is pure: every process
 * given the same listing computes the same split.
 *
 * @module
 */

/**
 * Share `index` (0-based) of `count`.
 *
 * @example
 * ```ts
 * import { parseShard, type Shard, shardOf } from "@x/repo-fs/fleet";
 * import { deepStrictEqual } from "node:assert/strict";
 * const mine: Shard = parseShard("1/2");
 * deepStrictEqual(mine, { index: 1, count: 2 });
 * const files = [{ name: "a.bin", size: 30 }, { name: "b.bin", size: 20 }, { name: "c.bin", size: 10 }];
 * deepStrictEqual(shardOf(files, mine).map((file) => file.name), ["b.bin", "c.bin"]);
 * ```
 */
export interface Shard {
  /** Which share, from 0 to `count - 1`. */
  index: number;
  /** How many shares there are, at least 1. */
  count: number;
}

/**
 * What {@linkcode shardOf} needs of a file: its path and its size in bytes
 * (`null` when unknown). A `FileInfo` is one.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type ShardableFile, shardOf } from "@x/repo-fs/fleet";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({
 *   files: { "a.bin": new Uint8Array(30), "b.bin": new Uint8Array(20), "c.bin": new Uint8Array(10) },
 * });
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const files: ShardableFile[] = await fs.ls(""); // a `FileInfo` will do
 * deepStrictEqual(shardOf(files, { index: 1, count: 2 }).map((file) => file.name), ["b.bin", "c.bin"]);
 * ```
 */
export interface ShardableFile {
  /** The dataset path; paths are unique in a listing. */
  name: string;
  /** Bytes, or `null` when the listing gives no size. */
  size: number | null;
}

/**
 * A selection of a Zarr array for `getArray`: a slice of the first axis,
 * every other axis whole.
 *
 * @example
 * ```ts
 * import { RepoFs } from "@x/repo-fs";
 * import { type ChunkSelection, chunkShard, getArray } from "@x/repo-fs/zarr";
 * import { startEmulator } from "@x/repo-fs/emulator";
 * import { deepStrictEqual } from "node:assert/strict";
 * await using emu = await startEmulator({ sample: true }); // temperature: 64 days, 8 to a chunk
 * const fs = new RepoFs({ host: emu.host, pid: emu.pid });
 * const firstHalf: ChunkSelection = chunkShard([64, 90, 180], [8, 45, 45], { index: 0, count: 2 });
 * deepStrictEqual(firstHalf, [{ start: 0, stop: 32, step: null }, null, null]);
 * const { shape } = await getArray(fs, "climate.zarr", "temperature", firstHalf);
 * deepStrictEqual(shape, [32, 90, 180]);
 * ```
 */
export type ChunkSelection = (
  | { start: number; stop: number; step: null }
  | null
)[];

/** The environment variables {@linkcode shardFromEnvironment} reads. */
export const SHARD_VARIABLES: readonly string[] = [
  "REPO_FS_SHARD",
  "SLURM_ARRAY_TASK_ID",
  "SLURM_ARRAY_TASK_COUNT",
  "SLURM_ARRAY_TASK_MIN",
  "SLURM_ARRAY_TASK_MAX",
  "SLURM_ARRAY_TASK_STEP",
  "JOB_COMPLETION_INDEX",
  "REPO_FS_SHARD_COUNT",
];

/**
 * Reads a share written `I/N`: I from 0 to N - 1. Anything else is a
 * `RangeError` saying what is wrong.
 *
 * @example
 * ```ts
 * import { parseShard } from "@x/repo-fs/fleet";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * deepStrictEqual(parseShard("1/4"), { index: 1, count: 4 });
 * throws(() => parseShard("4/4"), /0-based/);
 * throws(() => parseShard("one/4"), /two integers/);
 * ```
 *
 * @param text `I/N`, such as `0/4`
 * @returns the share
 */
export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (match === null) {
    throw new RangeError(
      `a share is written I/N, two integers such as 0/4, got ${
        JSON.stringify(text)
      }`,
    );
  }
  return checkShard({ index: Number(match[1]), count: Number(match[2]) });
}

/**
 * The files of share `shard.index` of `shard.count`, in path order. The
 * split depends only on the paths and sizes, never on the order of `files`
 * (which may differ between processes): files are taken largest first (ties
 * by path), each onto the share holding the fewest bytes so far (ties: the
 * fewest files, then the lowest index); a size of `null` counts as 0 bytes.
 * So the shares are disjoint and together hold every file once, their bytes
 * differ by at most the largest file's size, and files without bytes are
 * dealt out evenly.
 *
 * @example
 * ```ts
 * import { shardOf } from "@x/repo-fs/fleet";
 * import { deepStrictEqual } from "node:assert/strict";
 * const files = [
 *   { name: "a.bin", size: 600 },
 *   { name: "b.bin", size: 500 },
 *   { name: "c.bin", size: 400 },
 *   { name: "README.md", size: 10 },
 * ];
 * const names = (index: number) =>
 *   shardOf(files, { index, count: 2 }).map((file) => file.name);
 * deepStrictEqual(names(0), ["README.md", "a.bin"]); // 610 bytes
 * deepStrictEqual(names(1), ["b.bin", "c.bin"]); // 900 bytes
 * // The order of the listing does not matter.
 * deepStrictEqual(names(1), shardOf([...files].reverse(), { index: 1, count: 2 }).map((file) => file.name));
 * ```
 *
 * @param files the files to split, such as `FileInfo`s from `RepoFs.info`
 * @param shard which share of how many
 * @returns that share's files, sorted by path
 */
export function shardOf<T extends ShardableFile>(
  files: readonly T[],
  shard: Shard,
): T[] {
  checkShard(shard);
  const sorted = [...files].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0
  );
  const bytes = (i: number) => sorted[i].size ?? 0;
  const largestFirst = sorted.map((_, i) => i)
    .sort((a, b) => bytes(b) - bytes(a) || a - b);
  const shares = new LeastLoaded(shard.count);
  const mine = new Set<number>();
  for (const i of largestFirst) {
    if (shares.add(bytes(i)) === shard.index) mine.add(i);
  }
  return sorted.filter((_, i) => mine.has(i));
}

/**
 * Share `shard.index` of `shard.count` of a Zarr array's chunk grid, as a
 * selection for `getArray`: the first axis cut at chunk boundaries into
 * runs of whole chunks whose lengths differ by at most one chunk, every
 * other axis whole. The shares are disjoint and together cover the array;
 * with more shares than chunks along the first axis, some are empty
 * (`start === stop`).
 *
 * @example
 * ```ts
 * import { chunkShard } from "@x/repo-fs/zarr";
 * import { deepStrictEqual } from "node:assert/strict";
 * // 365 days in chunks of 30 days: 13 chunks, 3, 3, 3 and 4 to the 4 shares.
 * const shape = [365, 90, 180];
 * const chunks = [30, 45, 45];
 * deepStrictEqual(chunkShard(shape, chunks, { index: 0, count: 4 }), [
 *   { start: 0, stop: 90, step: null },
 *   null,
 *   null,
 * ]);
 * deepStrictEqual(chunkShard(shape, chunks, { index: 3, count: 4 })[0], {
 *   start: 270,
 *   stop: 365,
 *   step: null,
 * });
 * ```
 *
 * @param shape the array's shape (zarrita's `array.shape`)
 * @param chunks its chunk shape (zarrita's `array.chunks`)
 * @param shard which share of how many
 * @returns the share's selection
 */
export function chunkShard(
  shape: readonly number[],
  chunks: readonly number[],
  shard: Shard,
): ChunkSelection {
  checkShard(shard);
  if (shape.length === 0 || chunks.length !== shape.length) {
    throw new RangeError(
      `chunkShard needs an array of at least one axis and a chunk length per axis, got shape [${shape}] and chunks [${chunks}]`,
    );
  }
  const [length, chunk] = [shape[0], chunks[0]];
  const rows = Math.ceil(length / chunk);
  const edge = (index: number) =>
    Math.min(length, Math.floor((index * rows) / shard.count) * chunk);
  return [
    { start: edge(shard.index), stop: edge(shard.index + 1), step: null },
    ...shape.slice(1).map(() => null),
  ];
}

/**
 * The share a job array gives this process, from its environment:
 *
 * - `REPO_FS_SHARD=I/N`, when set, wins;
 * - a Slurm job array (`sbatch --array=0-3`, `1-4`, `0-30:10`): I is
 *   (`SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN`) / `SLURM_ARRAY_TASK_STEP`
 *   and N is `SLURM_ARRAY_TASK_COUNT` (or, without it, from
 *   `SLURM_ARRAY_TASK_MAX`); an array whose indexes are not evenly spaced
 *   (`--array=1,2,9`) is refused;
 * - a Kubernetes Indexed Job: I is `JOB_COMPLETION_INDEX` and N is
 *   `REPO_FS_SHARD_COUNT`, which the manifest sets to the Job's
 *   `completions` (Kubernetes does not pass that on to the pods).
 *
 * Without any of them, or with values that do not make a share, it throws
 * an `Error` naming the variables.
 *
 * @example
 * ```ts
 * import { shardFromEnvironment } from "@x/repo-fs/fleet";
 * import { deepStrictEqual, throws } from "node:assert/strict";
 * deepStrictEqual(
 *   shardFromEnvironment({ SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "4" }),
 *   { index: 2, count: 4 },
 * );
 * deepStrictEqual(
 *   shardFromEnvironment({ JOB_COMPLETION_INDEX: "0", REPO_FS_SHARD_COUNT: "8" }),
 *   { index: 0, count: 8 },
 * );
 * throws(() => shardFromEnvironment({}), /SLURM_ARRAY_TASK_ID/);
 * ```
 *
 * @param env the environment, such as `Deno.env.toObject()` or `process.env`
 * @returns the share
 */
export function shardFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Shard {
  const generic = env.REPO_FS_SHARD;
  if (generic !== undefined && generic !== "") {
    return withContext("REPO_FS_SHARD", () => parseShard(generic));
  }
  if (variable(env, "SLURM_ARRAY_TASK_ID") !== undefined) {
    return withContext("a Slurm job array", () => slurmShard(env));
  }
  if (variable(env, "JOB_COMPLETION_INDEX") !== undefined) {
    return withContext("a Kubernetes Indexed Job", () => kubernetesShard(env));
  }
  throw new Error(
    "no job array in the environment: expected SLURM_ARRAY_TASK_ID (a Slurm job array), JOB_COMPLETION_INDEX with REPO_FS_SHARD_COUNT (a Kubernetes Indexed Job), or REPO_FS_SHARD=I/N",
  );
}

/** The share of a Slurm array task (see {@linkcode shardFromEnvironment}). */
function slurmShard(env: Readonly<Record<string, string | undefined>>): Shard {
  const id = variable(env, "SLURM_ARRAY_TASK_ID")!;
  const min = variable(env, "SLURM_ARRAY_TASK_MIN") ?? 0;
  const step = variable(env, "SLURM_ARRAY_TASK_STEP") ?? 1;
  const max = variable(env, "SLURM_ARRAY_TASK_MAX");
  const count = variable(env, "SLURM_ARRAY_TASK_COUNT") ??
    (max === undefined ? undefined : (max - min) / step + 1);
  if (count === undefined) {
    throw new Error(
      "SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX",
    );
  }
  const evenlySpaced = step >= 1 && (id - min) % step === 0 &&
    (max === undefined || max - min === (count - 1) * step);
  if (!evenlySpaced) {
    throw new Error(
      `its indexes are not evenly spaced (SLURM_ARRAY_TASK_ID=${id}, MIN=${min}, MAX=${max}, STEP=${step}, COUNT=${count}); submit it with --array=A-B or A-B:S, or set REPO_FS_SHARD=I/N`,
    );
  }
  return checkShard({ index: (id - min) / step, count });
}

/** The share of a Kubernetes Indexed Job's pod. */
function kubernetesShard(
  env: Readonly<Record<string, string | undefined>>,
): Shard {
  const count = variable(env, "REPO_FS_SHARD_COUNT");
  if (count === undefined) {
    throw new Error(
      "JOB_COMPLETION_INDEX is set but REPO_FS_SHARD_COUNT is not: Kubernetes does not tell pods the Job's completions, so set REPO_FS_SHARD_COUNT to it in the container's env",
    );
  }
  return checkShard({ index: variable(env, "JOB_COMPLETION_INDEX")!, count });
}

/** A variable holding a non-negative integer, `undefined` when unset or empty. */
function variable(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new Error(
      `${name} must be a non-negative integer, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

/** `read()`, its error prefixed with where the values came from. */
function withContext(where: string, read: () => Shard): Shard {
  try {
    return read();
  } catch (error) {
    throw new Error(`${where}: ${(error as Error).message}`);
  }
}

/** `shard` when it is one; else a `RangeError` saying why not. */
function checkShard(shard: Shard): Shard {
  const { index, count } = shard;
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new RangeError(
      `the number of shares must be at least 1, got ${count}`,
    );
  }
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw new RangeError(
      `share ${index} of ${count} does not exist: shares are 0-based, 0/${count} to ${
        count - 1
      }/${count}`,
    );
  }
  return shard;
}

/**
 * The shares as a binary min-heap on (bytes, files, index): `add` gives a
 * file to the least loaded share and says which.
 */
class LeastLoaded {
  readonly #heap: { bytes: number; files: number; index: number }[];

  constructor(count: number) {
    this.#heap = Array.from({ length: count }, (_, index) => ({
      bytes: 0,
      files: 0,
      index,
    }));
  }

  add(bytes: number): number {
    const heap = this.#heap;
    const top = heap[0];
    top.bytes += bytes;
    top.files += 1;
    const before = (a: typeof top, b: typeof top) =>
      a.bytes - b.bytes || a.files - b.files || a.index - b.index;
    for (let at = 0;;) {
      let least = at;
      for (const child of [2 * at + 1, 2 * at + 2]) {
        if (child < heap.length && before(heap[child], heap[least]) < 0) {
          least = child;
        }
      }
      if (least === at) break;
      [heap[at], heap[least]] = [heap[least], heap[at]];
      at = least;
    }
    return top.index;
  }
}

/**
 * The browser test's harness page: it opens a dataset on the main thread or
 * through a `RepoFsPool`, does the reads a test asks for (the tree, a file,
 * a range, a stream, an array) and answers with what it read as lengths,
 * SHA-256 digests and shapes, so that the test can compare them with what
 * the emulator holds. Each read that fails answers its error's name and
 * message instead. Driven through `globalThis.harness`.
 *
 * @module
 */

/// <reference lib="dom" />

import * as zarr from "zarrita";
import { RepoFs, RepoFsPool } from "../../mod.ts";
import { getArray } from "../../zarr.ts";

/** What to open. */
interface OpenSpec {
  host: string;
  pid: string;
  token?: string;
  /** Workers of a pool; absent: read on the main thread. */
  workers?: number;
}

/** What to read; every read is optional. */
interface ReadSpec {
  tree?: boolean;
  file?: string;
  range?: { path: string; start: number; end: number };
  stream?: string;
  /** `selection`: per axis `[start, stop]`, or `null` for all of it. */
  array?: {
    root: string;
    path: string;
    selection: ([number, number] | null)[];
  };
}

/** Bytes as the test compares them. */
interface Digest {
  length: number;
  sha256: string;
}

type Outcome<T> = T | { error: { name: string; message: string } };

let fs: RepoFs | undefined;
let pool: RepoFsPool | undefined;

/** The opened dataset, or an error saying `open` comes first. */
function opened(): RepoFs {
  if (fs === undefined) throw new Error("harness.open() was not called");
  return fs;
}

async function digest(bytes: Uint8Array): Promise<Digest> {
  const hash = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  const hex = Array.from(
    new Uint8Array(hash),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
  return { length: bytes.length, sha256: hex };
}

async function outcome<T>(read: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return await read();
  } catch (error) {
    const { name, message } = error as Error;
    return { error: { name, message } };
  }
}

async function streamed(path: string): Promise<Digest> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of (await opened().open(path)).stream()) {
    chunks.push(chunk);
  }
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return digest(all);
}

async function arrayRead(spec: NonNullable<ReadSpec["array"]>) {
  const selection = spec.selection.map((axis) =>
    axis === null ? null : zarr.slice(axis[0], axis[1])
  );
  const { data, shape } = await getArray(
    pool ?? opened(),
    spec.root,
    spec.path,
    selection,
  );
  const values = data as unknown as ArrayBufferView;
  const bytes = new Uint8Array(
    values.buffer,
    values.byteOffset,
    values.byteLength,
  );
  return { shape, ...(await digest(bytes)) };
}

const harness = {
  /** Opens the dataset (and a pool, when `workers` is given). */
  open(spec: OpenSpec): boolean {
    fs = new RepoFs({ host: spec.host, pid: spec.pid, token: spec.token });
    if (spec.workers !== undefined) {
      pool = new RepoFsPool(fs, {
        workers: spec.workers,
        workerUrl: new URL("worker.js", location.href),
      });
    }
    return true;
  },

  /** Does the reads asked for, through the pool when there is one. */
  async read(spec: ReadSpec) {
    const fs = opened();
    const source = pool ?? fs;
    const { range } = spec;
    return {
      tree: spec.tree ? await outcome(() => source.find("")) : undefined,
      file: spec.file === undefined
        ? undefined
        : await outcome(async () => digest(await source.catFile(spec.file!))),
      range: range === undefined ? undefined : await outcome(async () =>
        digest(
          pool
            ? (await pool.catRanges([range]))[0]
            : await fs.catFile(range.path, range),
        )
      ),
      // A pool has no stream(): its file system streams on this thread,
      // with the URLs the pool resolved.
      stream: spec.stream === undefined
        ? undefined
        : await outcome(() => streamed(spec.stream!)),
      array: spec.array === undefined
        ? undefined
        : await outcome(() => arrayRead(spec.array!)),
    };
  },

  /** Ends the pool, if any. */
  async close(): Promise<boolean> {
    await pool?.close();
    pool = undefined;
    fs = undefined;
    return true;
  },
};

Object.assign(globalThis, { harness });

/**
 * The same verbs on every tree: every assertion here runs against a
 * `RepoFs` and against a `RepoFsPool` of 2 over the same dataset, and
 * those of the tree verbs against a `zipTree` of an archive of the same
 * files.
 */

import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import zlib from "node:zlib";
import {
  IsADirectoryError,
  NotFoundError,
  RepoFs,
  RepoFsPool,
  type WalkEntry,
} from "../mod.ts";
import { type Emulator, startEmulator } from "../emulator.ts";
import { ZipTree, zipTree } from "../zip.ts";
import { STREAM_WINDOW } from "../src/pool/pool_file.ts";
import { patterned } from "./support.ts";
import { zipArchive } from "./zip_archive.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const BIG = patterned(STREAM_WINDOW + 12_345, 3);
const A = patterned(1000, 1);
const FILES = {
  "README.md": "hello",
  "data/a.bin": A,
  "data/b.txt": "bbb",
  "data/deep/c.txt": "cc",
  "data/deep/deeper/d.txt": "d",
  "big.bin": BIG,
  "unsized.txt": { content: "no size listed", listedSize: null },
};

type Verbs = RepoFs | RepoFsPool;

/** FILES as the stored members of one archive (where every file has a size). */
const ARCHIVE = zipArchive(
  Object.entries(FILES).map(([name, file]) => {
    const content = typeof file === "object" && "content" in file
      ? file.content
      : file;
    const data = typeof content === "string"
      ? new TextEncoder().encode(content)
      : content;
    return {
      name,
      method: 0,
      data,
      size: data.length,
      crc32: zlib.crc32(data),
    };
  }),
);

/** Runs `check` against a fresh `RepoFs` and a pool of 2, each over its own emulator. */
function both(
  name: string,
  check: (source: Verbs, emu: Emulator) => Promise<void>,
): void {
  Deno.test(`RepoFs: ${name}`, async () => {
    await using emu = await startEmulator({ files: FILES });
    await check(new RepoFs({ host: emu.host, pid: emu.pid }), emu);
  });
  Deno.test(`RepoFsPool of 2: ${name}`, async () => {
    await using emu = await startEmulator({ files: FILES });
    await using pool = new RepoFsPool(
      new RepoFs({ host: emu.host, pid: emu.pid }),
      { workers: 2 },
    );
    await check(pool, emu);
  });
}

/** `both`, and `check` against a `zipTree` of {@linkcode ARCHIVE} too. */
function everyTree(
  name: string,
  check: (tree: Verbs | ZipTree) => Promise<void>,
): void {
  both(name, check);
  Deno.test(`zipTree: ${name}`, async () => {
    await using emu = await startEmulator({ files: { "a.zip": ARCHIVE } });
    await check(zipTree(new RepoFs({ host: emu.host, pid: emu.pid }), "a.zip"));
  });
}

async function collect(stream: ReadableStream<Uint8Array>) {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, (at += chunk.byteLength) - chunk.byteLength);
  }
  return { bytes: out, chunks: chunks.length };
}

everyTree(
  "ls, info, exists, find and glob answer from the table",
  async (fs) => {
    deepStrictEqual((await fs.ls("data")).map((e) => [e.name, e.type]), [
      ["data/a.bin", "file"],
      ["data/b.txt", "file"],
      ["data/deep", "directory"],
    ]);
    equal((await fs.info("data/a.bin")).size, 1000);
    equal(await fs.exists("data/deep/c.txt"), true);
    equal(await fs.exists("data/nope"), false);
    deepStrictEqual(await fs.find("data/deep"), [
      "data/deep/c.txt",
      "data/deep/deeper/d.txt",
    ]);
    deepStrictEqual(await fs.glob("data/**/*.txt"), [
      "data/b.txt",
      "data/deep/c.txt",
      "data/deep/deeper/d.txt",
    ]);
  },
);

everyTree(
  "isDir and isFile: true for their kind, false for the other and for a missing path",
  async (fs) => {
    deepStrictEqual(
      await Promise.all(
        ["", "data", "data/a.bin", "nope"].map((p) => fs.isDir(p)),
      ),
      [true, true, false, false],
    );
    deepStrictEqual(
      await Promise.all(
        ["", "data", "data/a.bin", "nope"].map((p) => fs.isFile(p)),
      ),
      [false, false, true, false],
    );
  },
);

everyTree(
  "du: listed bytes below a directory, a file's size, 0 for a missing path",
  async (fs) => {
    equal(await fs.du("data"), 1000 + 3 + 2 + 1);
    equal(await fs.du("data/deep"), 3);
    equal(await fs.du("data/a.bin"), 1000);
    equal(await fs.du("nope"), 0);
    // The file listed without a size counts 0; the archive's member has one.
    const unsized = fs instanceof ZipTree ? 14 : 0;
    equal(await fs.du(""), 5 + 1006 + BIG.byteLength + unsized);
  },
);

everyTree(
  "walk: [dir, dirs, files] top-down, pruned by editing dirs, limited by maxdepth",
  async (fs) => {
    const steps: WalkEntry[] = [];
    for await (const step of fs.walk("data")) steps.push(step);
    deepStrictEqual(steps, [
      ["data", ["deep"], ["a.bin", "b.txt"]],
      ["data/deep", ["deeper"], ["c.txt"]],
      ["data/deep/deeper", [], ["d.txt"]],
    ]);
    const roots: string[] = [];
    for await (const [dir, dirs] of fs.walk("")) {
      roots.push(dir);
      if (dir === "data") dirs.length = 0;
    }
    deepStrictEqual(roots, ["", "data"]);
    const shallow: string[] = [];
    for await (const [dir] of fs.walk("data", { maxdepth: 2 })) {
      shallow.push(dir);
    }
    deepStrictEqual(shallow, ["data", "data/deep"]);
    const file: WalkEntry[] = [];
    for await (const step of fs.walk("data/a.bin")) file.push(step);
    deepStrictEqual(file, [["data/a.bin", [], [""]]]);
    for await (const _ of fs.walk("nope")) ok(false, "a missing path walks");
    await rejects(fs.walk("", { maxdepth: 0 }).next(), TypeError);
  },
);

everyTree(
  "cat: a list of paths and glob patterns, by path; nothing matched, a directory or a missing file is an error",
  async (fs) => {
    const got = await fs.cat(["README.md", "data/deep/**/*.txt"]);
    deepStrictEqual(Object.keys(got), [
      "README.md",
      "data/deep/c.txt",
      "data/deep/deeper/d.txt",
    ]);
    deepStrictEqual(Object.values(got).map(text), ["hello", "cc", "d"]);
    deepStrictEqual(
      Object.keys(await fs.cat("data/*.txt")),
      ["data/b.txt"],
    );
    deepStrictEqual(Object.keys(await fs.cat("/README.md")), ["README.md"]);
    await rejects(fs.cat("data/*.csv"), NotFoundError);
    await rejects(fs.cat(["README.md", "data/deep"]), IsADirectoryError);
    await rejects(fs.cat("data/missing.txt"), NotFoundError);
  },
);

everyTree(
  "catFile and catRanges: ranges with negatives, in request order",
  async (fs) => {
    deepStrictEqual(
      await fs.catFile("data/a.bin", { start: -10 }),
      A.slice(-10),
    );
    const parts = await fs.catRanges([
      { path: "data/a.bin", start: 10, end: 20 },
      { path: "README.md", start: -3 },
      { path: "data/b.txt" },
    ]);
    deepStrictEqual(parts, [
      A.slice(10, 20),
      new TextEncoder().encode("llo"),
      new TextEncoder().encode("bbb"),
    ]);
  },
);

both(
  "open: read with options or positions, stream a range or the whole file",
  async (fs) => {
    const file = await fs.open("/big.bin");
    equal(file.path, "big.bin");
    equal(file.size, BIG.byteLength);
    deepStrictEqual(await file.read({ start: 5, end: 25 }), BIG.slice(5, 25));
    deepStrictEqual(await file.read(5, 25), BIG.slice(5, 25));
    deepStrictEqual(await file.read({ start: -7 }), BIG.slice(-7));
    deepStrictEqual(await file.read(), BIG);
    deepStrictEqual((await collect(file.stream())).bytes, BIG);
    deepStrictEqual(
      (await collect(file.stream({ start: 100, end: STREAM_WINDOW + 200 })))
        .bytes,
      BIG.slice(100, STREAM_WINDOW + 200),
    );
    deepStrictEqual(
      (await collect(file.stream({ start: -1000, end: -10 }))).bytes,
      BIG.slice(-1000, -10),
    );
    equal(
      (await collect(file.stream({ start: 50, end: 50 }))).bytes.byteLength,
      0,
    );
    const unsized = await fs.open("unsized.txt");
    equal(unsized.size, null);
    equal(text((await collect(unsized.stream())).bytes), "no size listed");
    equal(text((await collect(unsized.stream({ start: -4 }))).bytes), "sted");
    await rejects(fs.open("data"), IsADirectoryError);
    await rejects(fs.open("nope"), NotFoundError);
    await rejects(
      file.read({ signal: AbortSignal.abort(new Error("not now")) }),
      /not now/,
    );
  },
);

both(
  "downloadToFile: the file in place and checked, nothing left of an aborted one",
  async (fs) => {
    const dir = await Deno.makeTempDir();
    try {
      const done = await fs.downloadToFile("data/a.bin", join(dir, "a.bin"));
      equal(done.bytes, 1000);
      equal(done.verified, "md5");
      deepStrictEqual(await Deno.readFile(join(dir, "a.bin")), A);
      await rejects(
        fs.downloadToFile("big.bin", join(dir, "big.bin"), {
          signal: AbortSignal.abort(new Error("stop")),
        }),
        /stop/,
      );
      deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a.bin"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

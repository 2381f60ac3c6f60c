import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { lines } from "../text.ts";
import { type ByteSource, ZipFormatError, zipTree } from "../zip.ts";
import { crc32 } from "../src/formats/zip/crc32.ts";
import { DecodedHistory } from "../src/formats/zip/decoded_history.ts";

interface Listed {
  folder: boolean;
  method: string;
  size?: number;
  crc32?: string;
  sha256?: string;
}

const FIXTURES = new URL("../fixtures/zip/", import.meta.url);
const EXPECTED: Record<string, Record<string, Listed>> = JSON.parse(
  await Deno.readTextFile(new URL("methods.json", FIXTURES)),
);
const ARCHIVES = ["deflate64.zip", "zstd.zip", "unicode.zip"];
/** What `make_methods.py` wrote of comments.zip: each member's comment. */
const COMMENTS: Record<string, string> =
  (EXPECTED["comments.zip"] as unknown as { comments: Record<string, string> })
    .comments;

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

async function serve() {
  const files: Record<string, Uint8Array> = {};
  for (const name of [...ARCHIVES, "comments.zip"]) {
    files[name] = await Deno.readFile(new URL(name, FIXTURES));
  }
  const emu = await startEmulator({ files });
  return { emu, fs: new RepoFs({ host: emu.host, pid: emu.pid }) };
}

/** Every archive read through `source` as 7-Zip reads it: names, folders, bytes, ranges. */
async function readsAsSevenZip(source: ByteSource): Promise<void> {
  for (const archive of ARCHIVES) {
    const expected = EXPECTED[archive];
    const tree = zipTree(source, archive);
    // 7-Zip lists the folders that have entries; the tree, every parent too.
    const paths = new Set(Object.keys(expected));
    for (const path of Object.keys(expected)) {
      for (let at = path.indexOf("/"); at > 0; at = path.indexOf("/", at + 1)) {
        paths.add(path.slice(0, at));
      }
    }
    deepStrictEqual(
      await tree.find("", { withdirs: true }),
      [...paths].sort(),
      archive,
    );
    for (const [name, member] of Object.entries(expected)) {
      const info = await tree.info(name);
      equal(info.type, member.folder ? "directory" : "file", name);
      if (member.folder) continue;
      const bytes = await tree.catFile(name);
      equal(bytes.length, member.size, name);
      equal(crc32(bytes).toString(16).padStart(8, "0"), member.crc32, name);
      equal(await sha256(bytes), member.sha256, `${archive}: ${name}`);
      for (
        const [start, end] of [[1000, 1100], [70_000, 90_000], [-50, undefined]]
      ) {
        deepStrictEqual(
          await tree.catFile(name, { start, end }),
          bytes.slice(start, end),
          `${archive}: ${name} ${start}..${end}`,
        );
      }
    }
  }
}

Deno.test("Deflate64 (7-Zip), Zstandard and Unicode Path members read on a RepoFs as 7-Zip reads them, folders and empty folders listed", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  equal(EXPECTED["deflate64.zip"]["window.bin"].method, "Deflate64");
  equal(EXPECTED["zstd.zip"]["window.bin"].method, "zstd");
  await readsAsSevenZip(fs);
  const tree = zipTree(fs, "zstd.zip");
  deepStrictEqual(await tree.ls("empty"), []);
  deepStrictEqual(
    (await tree.ls("")).map((entry) => [entry.name, entry.type]),
    [
      ["docs", "directory"],
      ["empty", "directory"],
      ["tables", "directory"],
      ["window.bin", "file"],
      ["zeros.bin", "file"],
    ],
  );
  const names = await zipTree(fs, "unicode.zip").find("");
  ok(names.includes("七个房间.txt"), "the Unicode Path field's name");
  ok(names.includes("old-name.txt"), "a stale Unicode Path field is not used");
  ok(
    names.includes("café.txt"),
    "a name without the UTF-8 flag, in code page 437",
  );
});

Deno.test("member comments: the Unicode Comment field's where its CRC-32 holds, else the raw comment", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  const tree = zipTree(fs, "comments.zip");
  const comments = Object.fromEntries(
    (await tree.ls("")).map((entry) => [entry.name, entry.comment]),
  );
  deepStrictEqual(comments, COMMENTS);
  strictEqual((await tree.info("a.txt")).comment, "café ☕ notes");
});

Deno.test("Deflate64 and Zstandard members read on a pool of 2, and line by line in windows", async () => {
  const { emu, fs } = await serve();
  await using _ = emu;
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await readsAsSevenZip(pool);
  for (const archive of ["deflate64.zip", "zstd.zip"]) {
    const all = await Array.fromAsync(
      lines(zipTree(fs, archive), "tables/data.csv"),
    );
    equal(all.length, 6001);
    equal(all[0], "day,station,temperature");
    const tree = zipTree(pool, archive);
    const windows = [];
    for (let start = 0; start < 83130; start += 10_000) {
      windows.push(
        ...await Array.fromAsync(
          lines(tree, "tables/data.csv", { start, end: start + 10_000 }),
        ),
      );
    }
    deepStrictEqual(windows, all);
  }
});

Deno.test("damaged Deflate64 and Zstandard data is refused by name", async () => {
  const damaged: Record<string, Uint8Array> = {};
  for (const archive of ["deflate64.zip", "zstd.zip"]) {
    const bytes = await Deno.readFile(new URL(archive, FIXTURES));
    const text = new TextDecoder("latin1").decode(bytes);
    const at = text.indexOf("tables/data.csv") + "tables/data.csv".length;
    // Past the local header (and 7-Zip's extra field): into the data.
    bytes.fill(0xff, at + 600, at + 700);
    damaged[archive] = bytes;
  }
  await using emu = await startEmulator({ files: damaged });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(
    zipTree(fs, "deflate64.zip").catFile("tables/data.csv"),
    (error) =>
      error instanceof ZipFormatError && error.member === "tables/data.csv" &&
      /its Deflate64 data is damaged \(.+\)$/.test(error.message) &&
      error.cause instanceof Error,
  );
  await rejects(
    zipTree(fs, "zstd.zip").catFile("tables/data.csv"),
    (error) =>
      error instanceof ZipFormatError && error.member === "tables/data.csv" &&
      /its Zstandard data is damaged \(.+\)$/.test(error.message) &&
      error.cause instanceof Error,
  );
});

Deno.test("yauzl's archive with four Unicode Path fields, the first without a name: named 七个房间.txt, as yauzl's test expects", async () => {
  const archive = await Deno.readFile(
    new URL("yauzl/unicode-path-extra-field.zip", FIXTURES),
  );
  await using emu = await startEmulator({ files: { "u.zip": archive } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const tree = zipTree(fs, "u.zip");
  deepStrictEqual(await tree.find(""), ["七个房间.txt"]);
  equal((await tree.catFile("七个房间.txt")).length, 0);
});

Deno.test("decoded history keeps the last 4 MiB", () => {
  const size = 11 * 1024 * 1024;
  const member = new Uint8Array(size).map((_, i) => (i * 7 + (i >> 13)) & 0xff);
  const history = new DecodedHistory(size);
  let at = 0;
  for (const length of [10, 3 << 20, 1, 5 << 20, 12345, 2 << 20]) {
    history.append(member.subarray(at, at + length));
    at += length;
    equal(history.end, at);
    equal(history.start, Math.max(0, at - (4 << 20)));
    for (const from of [history.start, history.start + 1, at - 1000, at - 1]) {
      if (from < history.start) continue;
      deepStrictEqual(history.slice(from, at), member.slice(from, at));
    }
  }
  const small = new DecodedHistory(100);
  small.append(member.subarray(0, 100));
  deepStrictEqual(small.slice(0, 100), member.slice(0, 100));
});

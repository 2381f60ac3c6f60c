import {
  deepStrictEqual,
  equal,
  match,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import * as zarr from "zarrita";
import {
  IsADirectoryError,
  NotFoundError,
  RepoFs,
  RepoFsPool,
} from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { getArray, zarrStore } from "../zarr.ts";
import { type ByteSource, ZipFormatError, zipTree } from "../zip.ts";
import { crc32 } from "../src/formats/zip/crc32.ts";
import { collect } from "../src/content/content.ts";
import { bounded } from "./support.ts";
import { zipArchive } from "./zip_archive.ts";

interface Member {
  size: number;
  compressedSize: number;
  method: string;
  crc32: string;
  sha256: string;
}
type Expected = Record<
  string,
  { size: number; members: Record<string, Member> }
>;

const FIXTURES = new URL("../fixtures/zip/", import.meta.url);
const EXPECTED: Expected = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", FIXTURES)),
);
const PLAIN = EXPECTED["plain.zip"].members;
const CSV = "tables/data.csv";
const STORED = "raw/stored.txt";

function fixture(name: string): Promise<Uint8Array> {
  return Deno.readFile(new URL(name, FIXTURES));
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}

/** Serves `files` and gives a `RepoFs` over them. */
async function serve(files: Record<string, Uint8Array>) {
  const emu = await startEmulator({ files });
  return { emu, fs: new RepoFs({ host: emu.host, pid: emu.pid }) };
}

/** Reads every member of `tree` whole and compares with `expected`. */
async function checkMembers(
  tree: ByteSource,
  expected: Record<string, Member>,
): Promise<void> {
  for (const [name, member] of Object.entries(expected)) {
    const bytes = await tree.catFile(name);
    equal(bytes.length, member.size, name);
    equal(hex(crc32(bytes)), member.crc32, name);
    equal(await sha256(bytes), member.sha256, name);
  }
}

Deno.test("zipTree lists an archive as folders, with RepoFs's verbs", async () => {
  const { emu, fs } = await serve({ "data.zip": await fixture("plain.zip") });
  await using _ = emu;
  const tree = zipTree(fs, "data.zip");
  deepStrictEqual(await tree.find(""), Object.keys(PLAIN).sort());
  deepStrictEqual(
    (await tree.ls("")).map(({ name, type }) => [name, type]),
    [["a", "directory"], ["docs", "directory"], ["raw", "directory"], [
      "tables",
      "directory",
    ]],
  );
  deepStrictEqual(await tree.ls("docs"), [
    { name: "docs/empty.txt", type: "file", size: 0 },
    {
      name: "docs/readme.txt",
      type: "file",
      size: PLAIN["docs/readme.txt"].size,
    },
  ]);
  deepStrictEqual(await tree.info(CSV), {
    name: CSV,
    type: "file",
    size: PLAIN[CSV].size,
  });
  deepStrictEqual(await tree.info("a/b"), {
    name: "a/b",
    type: "directory",
    size: 0,
  });
  equal(await tree.exists("a/b/c/deep.txt"), true);
  equal(await tree.exists("a/b/c/missing.txt"), false);
  deepStrictEqual(await tree.find("a", { withdirs: true }), [
    "a",
    "a/b",
    "a/b/c",
    "a/b/c/deep.txt",
  ]);
  deepStrictEqual(await tree.glob("**/*.txt"), [
    "a/b/c/deep.txt",
    "docs/empty.txt",
    "docs/readme.txt",
    STORED,
  ]);
  deepStrictEqual(await tree.glob("*/"), ["a", "docs", "raw", "tables"]);
  await rejects(tree.info("nowhere.txt"), NotFoundError);
  await rejects(zipTree(fs, "").ls(""), IsADirectoryError);
  await rejects(zipTree(fs, "missing.zip").ls(""), NotFoundError);
  await rejects(tree.catFile("docs"), IsADirectoryError);
  await rejects(collect(tree.stream("docs/missing.txt")), NotFoundError);
  tree.stream("never/read.txt"); // fails only when read
  // The directory was read once: one tail read held it all.
  equal(emu.counters.storeGets, 1);
});

Deno.test("zipTree reads whole members, checked against unzip's CRC-32 and sha256sum", async () => {
  const { emu, fs } = await serve({ "data.zip": await fixture("plain.zip") });
  await using _ = emu;
  const tree = zipTree(fs, "data.zip");
  await checkMembers(tree, PLAIN);
  equal(PLAIN[CSV].method, "Defl:N");
  equal(PLAIN[STORED].method, "Stored");

  const file = await tree.open(CSV);
  equal(file.size, PLAIN[CSV].size);
  // A stream given up after its first chunk stops reading (the sanitizers
  // would see a read left running).
  const reader = file.stream().getReader();
  ok(((await reader.read()).value?.length ?? 0) > 0);
  await reader.cancel();
  equal(
    await sha256(await collect(file.stream())),
    PLAIN[CSV].sha256,
  );
});

Deno.test("zipTree reads ranges of stored and deflated members, as RepoFs reads ranges", async () => {
  const { emu, fs } = await serve({ "data.zip": await fixture("plain.zip") });
  await using _ = emu;
  const tree = zipTree(fs, "data.zip");
  for (const name of [CSV, STORED]) {
    const whole = await tree.catFile(name);
    const size = whole.length;
    const ranges: [number | undefined, number | undefined][] = [
      [0, 10],
      [1000, 5000],
      [70_000, 200_000],
      [size - 100, undefined],
      [-100, undefined],
      [-200, -100],
      [10, -10],
      [size, size + 10],
      [50, 50],
      [5, 3],
      [size - 5, size + 100],
    ];
    for (const [start, end] of ranges) {
      const part = await tree.catFile(name, { start, end });
      const at = (n: number | undefined, fallback: number) =>
        n === undefined
          ? fallback
          : n < 0
          ? Math.max(0, size + n)
          : Math.min(n, size);
      deepStrictEqual(
        part,
        whole.slice(at(start, 0), Math.max(at(start, 0), at(end, size))),
        `${name} ${start}..${end}`,
      );
    }
    const file = await tree.open(name);
    deepStrictEqual(
      await file.read({ start: 100, end: 150 }),
      whole.slice(100, 150),
    );
    deepStrictEqual(await file.read(-20), whole.slice(-20));
    deepStrictEqual(
      await collect(tree.stream(name, { start: 65_000, end: 140_000 })),
      whole.slice(65_000, 140_000),
    );
  }
});

Deno.test("zipTree reads a zip64 archive (zip -fz)", async () => {
  const { emu, fs } = await serve({ "big.zip": await fixture("zip64.zip") });
  await using _ = emu;
  const tree = zipTree(fs, "big.zip");
  const expected = EXPECTED["zip64.zip"].members;
  deepStrictEqual(await tree.find(""), Object.keys(expected).sort());
  await checkMembers(tree, expected);
  const whole = await tree.catFile(CSV);
  deepStrictEqual(await tree.catFile(CSV, { start: -500 }), whole.slice(-500));
});

Deno.test("zarrita reads a Zarr store inside a zip, and a zipped store (.zarr.zip)", async () => {
  const { emu, fs } = await serve({
    "data.zip": await fixture("zarr.zip"),
    "run.zarr.zip": await fixture("run.zarr.zip"),
  });
  await using _ = emu;
  const values = new Float32Array(24).map((_, i) => i);
  for (
    const store of [
      zarrStore(zipTree(fs, "data.zip"), "run.zarr"),
      zarrStore(zipTree(fs, "run.zarr.zip")),
    ]
  ) {
    const group = await zarr.open(store, { kind: "group" });
    const temperature = await zarr.open(group.resolve("temperature"), {
      kind: "array",
    });
    deepStrictEqual(temperature.shape, [4, 6]);
    const { data } = await zarr.get(temperature);
    deepStrictEqual(data, values);
    const row = await zarr.get(temperature, [2, null]);
    deepStrictEqual(row.data, values.slice(12, 18));
  }
  const viaGetArray = await getArray(
    zipTree(fs, "data.zip"),
    "run.zarr",
    "temperature",
    [
      zarr.slice(1, 3),
      1,
    ],
  );
  deepStrictEqual(viaGetArray.data, new Float32Array([7, 13]));
});

Deno.test("zipTree chains: a zip inside a zip, stored and deflated", async () => {
  const { emu, fs } = await serve({
    "nested.zip": await fixture("nested.zip"),
  });
  await using _ = emu;
  const outer = zipTree(fs, "nested.zip");
  await checkMembers(outer, EXPECTED["nested.zip"].members);
  for (const inner of ["plain.zip", "deflated/plain.zip"]) {
    const tree = zipTree(outer, inner);
    deepStrictEqual(await tree.find(""), Object.keys(PLAIN).sort());
    await checkMembers(tree, PLAIN);
    const whole = await tree.catFile(STORED);
    deepStrictEqual(
      await tree.catFile(STORED, { start: 500, end: 600 }),
      whole.slice(500, 600),
    );
  }
  equal(EXPECTED["nested.zip"].members["deflated/plain.zip"].method, "Defl:N");
});

Deno.test("a member read fetches no more than its compressed size, the central directory and 64 KiB", async () => {
  const archive = await fixture("plain.zip");
  const { emu, fs } = await serve({ "data.zip": archive });
  await using _ = emu;
  const end = new DataView(archive.buffer, archive.length - 22);
  const directorySize = end.getUint32(12, true);
  await fs.info("data.zip"); // the listing is not the archive's
  for (const name of [CSV, STORED]) {
    emu.resetCounters();
    const tree = zipTree(fs, "data.zip");
    equal((await tree.catFile(name)).length, PLAIN[name].size);
    const fetched = emu.counters.storeBytes;
    ok(
      fetched <= PLAIN[name].compressedSize + directorySize + 64 * 1024,
      `${name}: ${fetched} bytes fetched`,
    );
    ok(fetched < archive.length, `${name}: ${fetched} of ${archive.length}`);
  }
  // Once mounted, a range of a stored member costs about the range; the
  // start of a deflated one, not the whole member.
  const tree = zipTree(fs, "data.zip");
  await tree.catFile(STORED, { start: 0, end: 1 });
  emu.resetCounters();
  await tree.catFile(STORED, { start: 90_000, end: 90_100 });
  equal(emu.counters.storeBytes, 100);
  await tree.catFile(CSV, { start: 0, end: 100 });
  emu.resetCounters();
  await tree.catFile(CSV, { start: 100, end: 200 });
  ok(emu.counters.storeBytes <= 64 * 1024, `${emu.counters.storeBytes}`);
  ok(emu.counters.storeBytes < PLAIN[CSV].compressedSize);
});

Deno.test("a pool serves as the source of a zip tree", async () => {
  const { emu, fs } = await serve({ "data.zip": await fixture("plain.zip") });
  await using _ = emu;
  await using pool = new RepoFsPool(fs, { workers: 2 });
  const tree = zipTree(pool, "data.zip");
  equal(await sha256(await tree.catFile(CSV)), PLAIN[CSV].sha256);
});

Deno.test("an aborted read of a member rejects with the abort's reason", async () => {
  const { emu, fs } = await serve({ "data.zip": await fixture("plain.zip") });
  await using _ = emu;
  const tree = zipTree(fs, "data.zip");
  const stop = new AbortController();
  stop.abort(new Error("no longer wanted"));
  await rejects(tree.catFile(CSV, { signal: stop.signal }), /no longer wanted/);
  equal(await sha256(await tree.catFile(CSV)), PLAIN[CSV].sha256);
});

/** Where the central directory entry of `name` starts in `archive`. */
function entryOf(archive: Uint8Array, name: string): number {
  const text = new TextDecoder("latin1").decode(archive);
  return text.lastIndexOf(name) - 46;
}

/** A copy of `archive` with `change` applied to a view of it. */
function patched(
  archive: Uint8Array,
  change: (view: DataView, bytes: Uint8Array) => void,
): Uint8Array {
  const bytes = archive.slice();
  change(new DataView(bytes.buffer), bytes);
  return bytes;
}

/**
 * Serves `archive`, records every range asked of it, and checks that
 * `attempt` fails with a `ZipFormatError` matching `message` without
 * hanging or asking past the end of the file.
 */
async function refuses(
  archive: Uint8Array,
  attempt: (tree: ReturnType<typeof zipTree>) => Promise<unknown>,
  message: RegExp,
): Promise<void> {
  const { emu, fs } = await serve({ "data.zip": archive });
  await using _ = emu;
  const ranges: string[] = [];
  emu.faults.respond = (request, info) => {
    if (info.route === "content" && info.origin === "store") {
      ranges.push(request.headers.get("range") ?? "whole");
    }
    return undefined;
  };
  const error = await bounded(
    attempt(zipTree(fs, "data.zip")).then(
      () => undefined,
      (error) => error,
    ),
    "the refused read",
  );
  ok(error instanceof ZipFormatError, `${error}`);
  match(error.message, message);
  for (const range of ranges) {
    const [, first, last] = /^bytes=(\d*)-(\d*)$/.exec(range)!;
    ok(
      first === ""
        ? Number(last) <= archive.length
        : Number(last) < archive.length,
      `${range} of ${archive.length} bytes`,
    );
  }
}

Deno.test("hostile archives are refused by name, without a hang or a read past the file", async () => {
  const archive = await fixture("plain.zip");
  const length = archive.length;
  const deep = entryOf(archive, "a/b/c/deep.txt");
  const csv = entryOf(archive, CSV);
  const readCsv = (tree: ReturnType<typeof zipTree>) => tree.catFile(CSV);

  await refuses(
    archive.slice(0, length - 10),
    (tree) => tree.ls(""),
    /no end of central directory record/,
  );
  await refuses(
    archive.slice(0, length >> 1),
    (tree) => tree.ls(""),
    /truncated/,
  );
  await refuses(
    patched(archive, (view) => view.setUint32(length - 6, length, true)),
    (tree) => tree.ls(""),
    /central directory .* lies past its end record/,
  );
  await refuses(
    patched(archive, (view) => view.setUint32(csv + 42, length - 100, true)),
    readCsv,
    /lies past the central directory/,
  );
  await refuses(
    patched(archive, (view) => view.setUint16(length - 22 + 4, 1, true)),
    (tree) => tree.ls(""),
    /several disks/,
  );
  for (const name of ["../b/cdeep.txt", "/a/b/c/deep.tx"]) {
    await refuses(
      patched(
        archive,
        (_, bytes) => bytes.set(new TextEncoder().encode(name), deep + 46),
      ),
      (tree) => tree.ls(""),
      name.startsWith("/")
        ? /refused: it is absolute/
        : /refused: .*"\.\." segment/,
    );
  }
  await refuses(
    patched(
      archive,
      (view) =>
        view.setUint16(csv + 8, view.getUint16(csv + 8, true) | 1, true),
    ),
    readCsv,
    /member "tables\/data.csv": it is encrypted/,
  );
  for (
    const [method, name] of [[12, "bzip2"], [14, "LZMA"], [95, "XZ"]] as const
  ) {
    await refuses(
      patched(archive, (view) => view.setUint16(csv + 10, method, true)),
      readCsv,
      new RegExp(`compression method ${method} \\(${name}\\) is not supported`),
    );
  }
  await refuses(
    patched(archive, (view) => view.setUint32(csv + 16, 0x12345678, true)),
    readCsv,
    /CRC-32 mismatch: the data gives e2eb5957, the directory says 12345678/,
  );
  const local = new DataView(archive.buffer).getUint32(csv + 42, true);
  await refuses(
    patched(archive, (view) => {
      view.setUint32(csv + 24, PLAIN[CSV].size - 1, true);
      view.setUint32(local + 22, PLAIN[CSV].size - 1, true);
    }),
    readCsv,
    /more than the 277210 bytes/,
  );
  const stored = entryOf(archive, STORED);
  await refuses(
    patched(archive, (view) => view.setUint32(stored + 24, 0x7fffffff, true)),
    (tree) => tree.catFile(STORED),
    /it is stored, yet its size \(2147483647\) is not its stored size \(108000\)/,
  );
  await refuses(
    patched(archive, (view) => {
      view.setUint32(csv + 20, 50_000, true);
      view.setUint32(local + 18, 50_000, true);
    }),
    readCsv,
    /its data ends after \d+ bytes, the directory says 277211/,
  );
  const dataAt = new DataView(archive.buffer).getUint32(csv + 42, true) + 30 +
    new DataView(archive.buffer).getUint16(
      new DataView(archive.buffer).getUint32(csv + 42, true) + 26,
      true,
    ) +
    new DataView(archive.buffer).getUint16(
      new DataView(archive.buffer).getUint32(csv + 42, true) + 28,
      true,
    );
  await refuses(
    patched(
      archive,
      (_, bytes) => bytes.fill(0xff, dataAt + 5000, dataAt + 5200),
    ),
    readCsv,
    /deflate data is damaged|CRC-32 mismatch/,
  );
});

Deno.test("a refused member leaves the rest of the archive readable", async () => {
  const archive = await fixture("plain.zip");
  const csv = entryOf(archive, CSV);
  const { emu, fs } = await serve({
    "bzip2.zip": patched(archive, (view) => view.setUint16(csv + 10, 12, true)),
    "crc.zip": patched(archive, (view) => view.setUint32(csv + 16, 1, true)),
  });
  await using _ = emu;
  const tree = zipTree(fs, "bzip2.zip");
  await rejects(tree.catFile(CSV), ZipFormatError);
  const { [CSV]: _csv, ...rest } = PLAIN;
  await checkMembers(tree, rest);
  // A ranged read is checked against the size, not the CRC-32.
  const crcChanged = zipTree(fs, "crc.zip");
  await rejects(crcChanged.catFile(CSV), /CRC-32 mismatch/);
  await rejects(collect(crcChanged.stream(CSV)), /CRC-32 mismatch/);
  strictEqual(
    (await crcChanged.catFile(CSV, { start: 0, end: 10 })).length,
    10,
  );
});

Deno.test("bytes before the end record that only look like a zip64 locator (a member's comment) leave the end record to hold, as Python's zipfile reads them", async () => {
  const text = new TextEncoder().encode("hello, zip\n");
  const base = zipArchive([{
    name: "hi.txt",
    method: 0,
    data: text,
    size: text.length,
    crc32: crc32(text),
  }]);
  const end = base.length - 22;
  const directory = new DataView(base.buffer).getUint32(end + 16, true);
  // The entry's comment: a locator's signature, disk 0, offset 0, 1 disk.
  const comment = new Uint8Array(20);
  const fake = new DataView(comment.buffer);
  fake.setUint32(0, 0x07064b50, true);
  fake.setUint32(16, 1, true);
  const archive = new Uint8Array(base.length + 20);
  archive.set(base.subarray(0, end));
  archive.set(comment, end);
  archive.set(base.subarray(end), end + 20);
  const view = new DataView(archive.buffer);
  view.setUint16(directory + 32, 20, true);
  view.setUint32(end + 20 + 12, end + 20 - directory, true);
  const { emu, fs } = await serve({ "c.zip": archive });
  await using _ = emu;
  const tree = zipTree(fs, "c.zip");
  deepStrictEqual(await tree.find(""), ["hi.txt"]);
  deepStrictEqual(await tree.catFile("hi.txt"), text);
});

Deno.test("a member whose name holds a NUL is left out with a warning; the rest of the archive reads", async () => {
  const text = new TextEncoder().encode("kept\n");
  const member = (name: string) => ({
    name,
    method: 0,
    data: text,
    size: text.length,
    crc32: crc32(text),
  });
  const { emu, fs } = await serve({
    "n.zip": zipArchive([member("a.txt\0.exe"), member("b.txt")]),
  });
  await using _ = emu;
  const warnings: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (line: string) => warnings.push(line),
  };
  const tree = zipTree(fs, "n.zip", { logger });
  deepStrictEqual(await tree.find(""), ["b.txt"]);
  deepStrictEqual(await tree.catFile("b.txt"), text);
  equal(warnings.length, 1);
  match(
    warnings[0],
    /left out: A dataset path may not contain a NUL character/,
  );
  // A NUL does not hide a name that would leave the tree: that is refused whole.
  const { emu: emu2, fs: fs2 } = await serve({
    "e.zip": zipArchive([member("../a\0"), member("b.txt")]),
  });
  await using _2 = emu2;
  await rejects(zipTree(fs2, "e.zip").ls(""), /refused: .*"\.\." segment/);
});

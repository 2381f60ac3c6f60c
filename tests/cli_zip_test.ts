import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { type EmulatorOptions, startEmulator } from "../emulator.ts";
import { type CliRun, filesBelow, runCli } from "./support.ts";
import { repeatedDeflate, zipArchive } from "./zip_archive.ts";

const ZIPS = new URL("../fixtures/zip/", import.meta.url);
const expected = JSON.parse(
  await Deno.readTextFile(new URL("expected.json", ZIPS)),
) as Record<
  string,
  { members: Record<string, { size: number; sha256: string }> }
>;
const plain = expected["plain.zip"].members;

function fixture(name: string): Uint8Array {
  return Deno.readFileSync(new URL(name, ZIPS));
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** An emulator serving the zip fixtures (and `files`), a temp dir, and `cli(...)`. */
async function setup(files: EmulatorOptions["files"] = {}) {
  const emu = await startEmulator({
    files: {
      "plain.zip": fixture("plain.zip"),
      "nested.zip": fixture("nested.zip"),
      "zip64.zip": fixture("zip64.zip"),
      "notes.txt": "not a zip\n",
      ...files,
    },
  });
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  return {
    emu,
    tmp,
    cli: (...args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, ...args]),
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

function ok0(run: CliRun): CliRun {
  equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  return run;
}

function json<T = unknown>(run: CliRun): T {
  return JSON.parse(ok0(run).stdout) as T;
}

Deno.test("ls, tree, find, glob and info see inside a zip through !/", async () => {
  await using t = await setup();
  const top = json<{ name: string; type: string }[]>(
    await t.cli("--json", "ls", "plain.zip!/"),
  );
  deepStrictEqual(top.map((e) => [e.name, e.type]), [
    ["plain.zip!/a", "directory"],
    ["plain.zip!/docs", "directory"],
    ["plain.zip!/raw", "directory"],
    ["plain.zip!/tables", "directory"],
  ]);
  const bare = ok0(await t.cli("ls", "plain.zip!")).stdout;
  ok(bare.includes("plain.zip!/docs/"), bare);
  const docs = ok0(await t.cli("ls", "plain.zip!/docs")).stdout;
  ok(docs.includes("plain.zip!/docs/readme.txt"), docs);

  const members = Object.keys(plain).sort().map((m) => `plain.zip!/${m}`);
  deepStrictEqual(json(await t.cli("--json", "find", "plain.zip!/")), members);
  deepStrictEqual(
    json(await t.cli("--json", "glob", "plain.zip!/**/*.txt")),
    members.filter((m) => m.endsWith(".txt")),
  );
  const tree = ok0(await t.cli("tree", "plain.zip!/")).stdout;
  ok(tree.startsWith("plain.zip!/\n"), tree);
  ok(tree.includes("deep.txt  (10 B)"), tree);
  ok(tree.includes("6 directories, 5 files"), tree);

  const info = json<{ name: string; size: number }>(
    await t.cli("--json", "info", "plain.zip!/tables/data.csv"),
  );
  deepStrictEqual(info, {
    name: "plain.zip!/tables/data.csv",
    type: "file",
    size: 277211,
  });
  const dir = json<{ files: number }>(
    await t.cli("--json", "info", "plain.zip!/docs"),
  );
  equal(dir.files, 2);
  // The zip64 archive lists the same way.
  deepStrictEqual(
    json(await t.cli("--json", "find", "zip64.zip!/")),
    Object.keys(expected["zip64.zip"].members).sort().map((m) =>
      `zip64.zip!/${m}`
    ),
  );
});

Deno.test("cat of a member: whole (CRC-checked), by range, by lines", async () => {
  await using t = await setup();
  const whole = ok0(await t.cli("cat", "plain.zip!/tables/data.csv")).bytes;
  equal(sha256(whole), plain["tables/data.csv"].sha256);
  const readme = ok0(await t.cli("cat", "plain.zip!/docs/readme.txt")).bytes;
  equal(sha256(readme), plain["docs/readme.txt"].sha256);

  const range = ok0(
    await t.cli(
      "cat",
      "plain.zip!/tables/data.csv",
      "--start",
      "1000",
      "--end",
      "1100",
    ),
  ).bytes;
  deepStrictEqual(range, whole.subarray(1000, 1100));
  const lines = new TextDecoder().decode(whole).split("\n").slice(0, -1);
  equal(
    ok0(await t.cli("cat", "plain.zip!/tables/data.csv", "--head", "3")).stdout,
    lines.slice(0, 3).map((l) => `${l}\n`).join(""),
  );
  equal(
    ok0(await t.cli("cat", "plain.zip!/tables/data.csv", "--tail", "2")).stdout,
    lines.slice(-2).map((l) => `${l}\n`).join(""),
  );
});

Deno.test("cat of a member reads the directory and that member, not the archive", async () => {
  await using t = await setup();
  const before = t.emu.counters.storeBytes;
  const readme = ok0(await t.cli("cat", "plain.zip!/docs/readme.txt")).bytes;
  equal(sha256(readme), plain["docs/readme.txt"].sha256);
  const fetched = t.emu.counters.storeBytes - before;
  ok(fetched > 0 && fetched <= 64 * 1024, `${fetched} bytes fetched`);
  ok(fetched < fixture("plain.zip").length / 3, `${fetched} bytes fetched`);
});

Deno.test("cat of a 128 MiB deflated member: --head and the whole stream fetch its compressed bytes once", async () => {
  // 1 MiB of 1 KiB lines, 128 times.
  const line = "x".repeat(1023) + "\n";
  const block = new TextEncoder().encode(line.repeat(1024));
  const member = repeatedDeflate("big.txt", block, 128);
  await using t = await setup({ "g.zip": zipArchive([member]) });
  let before = t.emu.counters.storeBytes;
  equal(
    ok0(await t.cli("cat", "g.zip!/big.txt", "--head", "1")).stdout,
    line,
  );
  const byHead = t.emu.counters.storeBytes - before;
  ok(byHead <= 64 * 1024, `--head: ${byHead} bytes fetched`);
  before = t.emu.counters.storeBytes;
  const whole = ok0(await t.cli("cat", "g.zip!/big.txt")).bytes;
  equal(whole.length, member.size);
  const byCat = t.emu.counters.storeBytes - before;
  ok(
    byCat <= member.data.length + 64 * 1024,
    `cat: ${byCat} bytes fetched of ${member.data.length}`,
  );
});

Deno.test("a zip inside a zip: a.zip!/b.zip!/member", async () => {
  await using t = await setup();
  deepStrictEqual(
    json<{ name: string }[]>(await t.cli("--json", "ls", "nested.zip!/"))
      .map((e) => e.name),
    ["nested.zip!/deflated", "nested.zip!/outer.txt", "nested.zip!/plain.zip"],
  );
  for (const inner of ["plain.zip", "deflated/plain.zip"]) {
    const path = `nested.zip!/${inner}!/tables/data.csv`;
    equal(
      sha256(ok0(await t.cli("cat", path)).bytes),
      plain["tables/data.csv"].sha256,
      path,
    );
  }
  deepStrictEqual(
    json(await t.cli("--json", "glob", "nested.zip!/plain.zip!/docs/*")),
    [
      "nested.zip!/plain.zip!/docs/empty.txt",
      "nested.zip!/plain.zip!/docs/readme.txt",
    ],
  );
});

Deno.test("nothing found inside a zip: one line, exit 1", async () => {
  await using t = await setup();
  for (
    const args of [
      ["ls", "plain.zip!/nope"],
      ["cat", "plain.zip!/docs/nope.txt"],
      ["info", "nested.zip!/plain.zip!/nope"],
      ["find", "plain.zip!/nope"],
      ["glob", "plain.zip!/*.csv"],
      ["ls", "missing.zip!/x"],
      ["get", "plain.zip!/nope/**", "--out", t.tmp],
    ]
  ) {
    const run = await t.cli(...args);
    equal(run.code, 1, `${args.join(" ")}: ${run.stderr}`);
    equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    equal(run.stdout, "", args.join(" "));
  }
  const hint = await t.cli("glob", "plain.zip!/*.csv");
  ok(hint.stderr.includes('1 matches "plain.zip!/**/*.csv"'), hint.stderr);
  const notZip = await t.cli("ls", "notes.txt!/");
  equal(notZip.code, 1);
  ok(notZip.stderr.includes("notes.txt"), notZip.stderr);
  deepStrictEqual(await filesBelow(t.tmp), []);
});

Deno.test("failures inside archives name the path as written; a restricted zip keeps the token hint", async () => {
  await using t = await setup({
    "secret.zip": { content: fixture("plain.zip"), restricted: true },
  });
  const notZip = await t.cli("ls", "plain.zip!/docs/readme.txt!/");
  equal(notZip.code, 1);
  ok(
    notZip.stderr.startsWith(
      'repo-fs: "plain.zip!/docs/readme.txt!/": Zip archive',
    ),
    notZip.stderr,
  );
  const dir = await t.cli("cat", "plain.zip!/docs");
  equal(dir.code, 1);
  ok(dir.stderr.includes('"plain.zip!/": Is a directory'), dir.stderr);
  const secret = await t.cli("ls", "secret.zip!/");
  equal(secret.code, 1);
  ok(secret.stderr.includes("no API token was sent"), secret.stderr);
});

Deno.test("get of members writes them at their path in the archive, CRC-checked; --resume skips those whose CRC-32 matches", async () => {
  await using t = await setup();
  const out = join(t.tmp, "out");
  const summary = json<
    { downloaded: number; verified: Record<string, number>; failed: number }
  >(
    await t.cli(
      "--json",
      "get",
      "plain.zip!/tables/**",
      "nested.zip!/plain.zip!/docs",
      "notes.txt",
      "--out",
      out,
    ),
  );
  equal(summary.downloaded, 4);
  deepStrictEqual(summary.verified, { crc32: 3, md5: 1 });
  deepStrictEqual(await filesBelow(out), [
    "docs/empty.txt",
    "docs/readme.txt",
    "notes.txt",
    "tables/data.csv",
  ]);
  for (const member of ["tables/data.csv", "docs/readme.txt"]) {
    equal(sha256(await Deno.readFile(join(out, member))), plain[member].sha256);
  }
  // --resume: a member of the right size but other bytes is fetched again.
  const csv = join(out, "tables/data.csv");
  const changed = await Deno.readFile(csv);
  changed[5] ^= 0xff;
  await Deno.writeFile(csv, changed);
  const again = json<{ downloaded: number; skipped: number }>(
    await t.cli(
      "--json",
      "get",
      "plain.zip!/tables/**",
      "plain.zip!/docs/readme.txt",
      "--out",
      out,
      "--resume",
    ),
  );
  deepStrictEqual([again.downloaded, again.skipped], [1, 1]);
  equal(sha256(await Deno.readFile(csv)), plain["tables/data.csv"].sha256);
  // Two selected files that would land on the same path: the second is not written.
  const twice = await t.cli(
    "get",
    "plain.zip!/docs/readme.txt",
    "zip64.zip!/docs/readme.txt",
    "--out",
    join(t.tmp, "twice"),
  );
  equal(twice.code, 1);
  ok(
    twice.stderr.includes(
      'failed "zip64.zip!/docs/readme.txt": another selected file',
    ),
    twice.stderr,
  );
  deepStrictEqual(await filesBelow(join(t.tmp, "twice")), ["docs/readme.txt"]);
});

Deno.test("get: a member whose bytes fail its CRC-32 is not kept, exit 1, the others arrive", async () => {
  const archive = fixture("plain.zip");
  const bad = corruptStoredMember(archive, "raw/stored.txt");
  await using t = await setup({ "bad.zip": bad });
  const out = join(t.tmp, "out");
  const run = await t.cli("get", "bad.zip!/**", "--out", out);
  equal(run.code, 1, run.stderr);
  ok(
    /failed "bad\.zip!\/raw\/stored\.txt": .*CRC-32/.test(run.stderr),
    run.stderr,
  );
  const others = Object.keys(plain).filter((m) => m !== "raw/stored.txt");
  deepStrictEqual(await filesBelow(out), others.sort());
  for (const member of others) {
    equal(sha256(await Deno.readFile(join(out, member))), plain[member].sha256);
  }
  // cat of the whole member fails too, and a range of it still reads.
  const cat = await t.cli("cat", "bad.zip!/raw/stored.txt");
  equal(cat.code, 1);
  ok(cat.stderr.includes("CRC-32"), cat.stderr);
  ok0(await t.cli("cat", "bad.zip!/raw/stored.txt", "--end", "10"));
});

/** A copy of `archive` with one byte of a stored member's data flipped. */
function corruptStoredMember(archive: Uint8Array, name: string): Uint8Array {
  const copy = archive.slice();
  const view = new DataView(copy.buffer);
  const wanted = new TextEncoder().encode(name);
  for (let at = 0; at + 30 < copy.length; at++) {
    if (view.getUint32(at, true) !== 0x04034b50) continue;
    const nameLength = view.getUint16(at + 26, true);
    const extraLength = view.getUint16(at + 28, true);
    const found = copy.subarray(at + 30, at + 30 + nameLength);
    if (
      found.length !== wanted.length || !found.every((b, i) => b === wanted[i])
    ) {
      continue;
    }
    copy[at + 30 + nameLength + extraLength + 100] ^= 0xff;
    return copy;
  }
  throw new Error(`no local header for ${name}`);
}

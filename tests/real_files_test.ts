// What real installations list beyond the basics: checksums of every type,
// ingested tabular files and their originals, restricted and embargoed files.

import {
  deepStrictEqual,
  equal,
  match,
  notEqual,
  ok,
  rejects,
} from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  type FileInfo,
  type RepoFile,
  RepoFs,
  RepoFsPool,
  RepoHttpError,
} from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { downloadToFile } from "../src/download/file_download.ts";
import { isComplete } from "../src/cli/download.ts";
import type { SerializedForm } from "../src/serialize.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NOT_AUTHORIZED =
  "Not authorized to access this object via this API endpoint.";
/** Long and random: error messages blank out every token ever used. */
const TOKEN = `tok-${crypto.randomUUID()}`;

function digest(algorithm: string, content: string): string {
  return createHash(algorithm).update(content).digest("hex");
}

/** A temporary directory that removes itself. */
async function tempDir() {
  const path = await Deno.makeTempDir();
  return {
    path,
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

Deno.test("checksums of every type, restricted and embargoed files reach FileInfo, also through serialisation", async () => {
  await using emu = await startEmulator({
    files: {
      "md5.txt": "abc",
      "sha1.txt": { content: "abc", checksumType: "SHA-1" },
      "sha256.txt": { content: "abc", checksumType: "SHA-256" },
      "sha512.txt": { content: "abc", checksumType: "SHA-512" },
      "none.txt": { content: "abc", checksum: null },
      "secret.txt": { content: "s", restricted: true },
      "later.txt": { content: "l", embargo: "2999-01-01" },
      "past.txt": { content: "p", embargo: "2000-01-01" },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const file = (name: string, extra: Partial<FileInfo>): FileInfo => ({
    name,
    type: "file",
    size: name === "secret.txt" || name.endsWith("r.txt") ? 1 : 3,
    id: emu.fileId(name),
    contentType: "application/octet-stream",
    ...extra,
  });
  const md5 = (value: string) => ({
    md5: value,
    checksum: { type: "MD5", value },
  });
  const expected = [
    file("later.txt", {
      ...md5(digest("md5", "l")),
      restricted: true,
      embargoedUntil: "2999-01-01",
    }),
    file("md5.txt", md5(digest("md5", "abc"))),
    file("none.txt", {}),
    { ...file("past.txt", md5(digest("md5", "p"))), size: 1 },
    file("secret.txt", { ...md5(digest("md5", "s")), restricted: true }),
    file("sha1.txt", {
      checksum: { type: "SHA-1", value: digest("sha1", "abc") },
    }),
    file("sha256.txt", {
      checksum: { type: "SHA-256", value: digest("sha256", "abc") },
    }),
    file("sha512.txt", {
      checksum: { type: "SHA-512", value: digest("sha512", "abc") },
    }),
  ];
  deepStrictEqual(await fs.ls(""), expected);
  for (
    const form of [
      structuredClone(fs.serialize()),
      JSON.parse(JSON.stringify(fs.serialize())),
    ]
  ) {
    deepStrictEqual(await RepoFs.fromSerialized(form).ls(""), expected);
  }
  equal(emu.counters.listingCalls, 1, "the copies did not list");
});

Deno.test("downloads are checked with the listed checksum's own hash; a mismatch names its type and values and is not kept", async () => {
  await using emu = await startEmulator({
    files: {
      "a.md5": "abc",
      "a.sha1": { content: "abc", checksumType: "SHA-1" },
      "a.sha256": { content: "abc", checksumType: "SHA-256" },
      "a.sha512": { content: "abc", checksumType: "SHA-512" },
      "bad.sha512": {
        content: "abc",
        checksumType: "SHA-512",
        checksum: "0".repeat(128),
      },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  await using dir = await tempDir();
  const kinds = {
    md5: "md5",
    sha1: "sha1",
    sha256: "sha256",
    sha512: "sha512",
  };
  for (const [extension, kind] of Object.entries(kinds)) {
    const path = `a.${extension}`;
    deepStrictEqual(
      await pool.downloadToFile(path, join(dir.path, path)),
      { bytes: 3, verified: kind },
      path,
    );
    const info = await fs.info(path);
    ok(await isComplete(join(dir.path, path), info, AbortSignal.any([])));
    await Deno.writeTextFile(join(dir.path, path), "abd");
    ok(
      !await isComplete(join(dir.path, path), info, AbortSignal.any([])),
      `${path}: changed bytes of the same size are not complete`,
    );
  }
  await rejects(
    pool.downloadToFile("bad.sha512", join(dir.path, "bad.sha512")),
    (error: Error) => {
      equal(
        error.message,
        `SHA-512 mismatch: the listing says ${
          "0".repeat(128)
        }, the bytes received have ${digest("sha512", "abc")}; not kept`,
      );
      return true;
    },
  );
  const left = [];
  for await (const entry of Deno.readDir(dir.path)) left.push(entry.name);
  deepStrictEqual(left.sort(), ["a.md5", "a.sha1", "a.sha256", "a.sha512"]);
});

Deno.test("a checksum of a type that cannot be computed leaves a download unverified and never complete", async () => {
  await using dir = await tempDir();
  const bytes = encoder.encode("abc");
  const opened: RepoFile = {
    path: "x",
    size: 3,
    read: () => Promise.resolve(bytes),
    stream: () => ReadableStream.from([bytes]),
  };
  const info: FileInfo = {
    name: "x",
    type: "file",
    size: 3,
    checksum: { type: "UNF", value: "UNF:6:abc" },
  };
  const target = join(dir.path, "x");
  deepStrictEqual(await downloadToFile(opened, info, target), {
    bytes: 3,
    verified: "none",
  });
  equal(await Deno.readTextFile(target), "abc");
  ok(!await isComplete(target, info, AbortSignal.any([])));
});

const ARCHIVAL = "name\tvalue\na\t1\nb\t2\n";
const ORIGINAL = "name,value\r\na,1\r\nb,2\r\n";

Deno.test('tabular "original": ingested files appear and read as their original uploads, with URLs cached apart', async () => {
  await using emu = await startEmulator({
    files: {
      "survey/t.tab": {
        content: ARCHIVAL,
        listedSize: 12,
        contentType: "text/tab-separated-values",
        tabular: true,
        original: ORIGINAL,
        checksumType: "SHA-1",
      },
      "survey/notes.txt": "plain",
    },
  });
  const id = emu.fileId("survey/t.tab");
  const sha1 = { type: "SHA-1", value: digest("sha1", ORIGINAL) };
  const archival = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await archival.info("survey/t.tab"), {
    name: "survey/t.tab",
    type: "file",
    size: 12,
    id,
    contentType: "text/tab-separated-values",
    checksum: sha1,
    tabular: true,
  });
  equal(decoder.decode(await archival.catFile("survey/t.tab")), ARCHIVAL);

  const fs = new RepoFs({ host: emu.host, pid: emu.pid, tabular: "original" });
  deepStrictEqual(await fs.ls("survey"), [
    {
      name: "survey/notes.txt",
      type: "file",
      size: 5,
      id: emu.fileId("survey/notes.txt"),
      contentType: "application/octet-stream",
      md5: digest("md5", "plain"),
      checksum: { type: "MD5", value: digest("md5", "plain") },
    },
    {
      name: "survey/t.csv",
      type: "file",
      size: ORIGINAL.length,
      id,
      contentType: "text/csv",
      checksum: sha1,
      format: "original",
    },
  ]);
  equal(await fs.exists("survey/t.tab"), false);
  equal(decoder.decode(await fs.catFile("survey/t.csv")), ORIGINAL);
  equal(
    decoder.decode(await fs.catFile("survey/t.csv", { start: -6 })),
    ORIGINAL.slice(-6),
  );

  const headsBefore = emu.counters.heads;
  const originalUrl = await fs.resolveDownloadUrl(id, "original");
  const archivalUrl = await fs.resolveDownloadUrl(id);
  equal(emu.counters.heads, headsBefore + 1, "the original's URL was cached");
  notEqual(originalUrl, archivalUrl);
  ok(new URL(originalUrl).pathname.endsWith(".orig"), originalUrl);
  deepStrictEqual(
    (fs.serialize() as SerializedForm).urls.filter(([fileId]) => fileId === id)
      .sort((a, b) => a.length - b.length),
    [[id, archivalUrl, false], [id, originalUrl, false, "original"]],
  );

  const copy = RepoFs.fromSerialized(
    JSON.parse(JSON.stringify(fs.serialize())),
  );
  const heads = emu.counters.heads;
  equal(decoder.decode(await copy.catFile("survey/t.csv")), ORIGINAL);
  equal(emu.counters.heads, heads, "no HEAD for a cached original URL");
  equal((await copy.info("survey/t.csv")).format, "original");
  await using pool = new RepoFsPool(fs, { workers: 1 });
  equal(decoder.decode(await pool.catFile("survey/t.csv")), ORIGINAL);
});

Deno.test('tabular "original" without redirects: the original comes from the access endpoint, with the token', async () => {
  await using emu = await startEmulator({
    token: TOKEN,
    faults: { redirect: false },
    files: {
      "t.tab": { content: ARCHIVAL, tabular: true, original: ORIGINAL },
    },
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: TOKEN,
    tabular: "original",
  });
  const url = await fs.resolveDownloadUrl(emu.fileId("t.tab"), "original");
  equal(new URL(url).search, "?format=original");
  equal(decoder.decode(await fs.catFile("t.csv")), ORIGINAL);
  equal(emu.counters.accessBytes, ORIGINAL.length);
  equal(emu.counters.storeRequests, 0);
});

Deno.test("a bad tabular option is a TypeError", () => {
  let error: unknown;
  try {
    new RepoFs({
      host: "http://127.0.0.1:1",
      pid: "doi:10.5072/FK2/X",
      tabular: "both" as "original",
    });
  } catch (e) {
    error = e;
  }
  ok(error instanceof TypeError);
  match(error.message, /tabular must be "archival" or "original", got "both"/);
});

Deno.test("reading a restricted or embargoed file without access says so, in a worker too", async () => {
  await using emu = await startEmulator({
    files: {
      "secret.txt": { content: "s", restricted: true },
      "later.txt": { content: "l", embargo: "2999-01-01" },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  const refused = (why: string) => (error: Error) => {
    ok(error instanceof RepoHttpError, String(error));
    equal(error.status, 403);
    ok(error.message.includes(NOT_AUTHORIZED), error.message);
    ok(
      error.message.endsWith(`(${why}; no API token was sent)`),
      error.message,
    );
    return true;
  };
  for (const reader of [fs, pool]) {
    await rejects(
      reader.catFile("secret.txt"),
      refused("the file is restricted"),
    );
    await rejects(
      reader.catFile("later.txt", { start: 0, end: 1 }),
      refused("the file is embargoed until 2999-01-01"),
    );
  }
});

Deno.test("a token holder reads the files granted to it; others are refused, saying the token has no access", async () => {
  await using emu = await startEmulator({
    token: TOKEN,
    files: {
      "granted.txt": {
        content: "yes",
        restricted: true,
        grantedToTokenHolder: true,
      },
      "lifted.txt": {
        content: "soon",
        embargo: "2999-01-01",
        grantedToTokenHolder: true,
      },
      "other.txt": { content: "no", restricted: true },
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: TOKEN });
  equal(decoder.decode(await fs.catFile("granted.txt")), "yes");
  equal(decoder.decode(await fs.catFile("lifted.txt")), "soon");
  await rejects(fs.catFile("other.txt"), (error: Error) => {
    ok(error instanceof RepoHttpError);
    equal(error.status, 403);
    ok(
      error.message.endsWith(
        "(the file is restricted; the API token sent has no access)",
      ),
      error.message,
    );
    ok(!error.message.includes(TOKEN), "the token is not shown");
    return true;
  });
});

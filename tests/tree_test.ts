import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import {
  listCollection,
  NotFoundError,
  RepoFs,
  RepoHttpError,
  RepoProtocolError,
} from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { recordingLogger } from "./support.ts";
import { malformedJson } from "./emulator_faults.ts";
import {
  RoutingTable,
  type RoutingTableBuilder,
} from "../src/tree/routing_table.ts";
import {
  baseName,
  keyProblem,
  listedKey,
  normalizePath,
  parentKey,
} from "../src/tree/paths.ts";

const AWKWARD = {
  "climate.zarr/.zgroup": '{"zarr_format":2}',
  "climate.zarr/.zattrs": "{}",
  "climate.zarr/temp/.zarray": "{}",
  "climate.zarr/temp/0.0": "chunk",
  "climate.zarr/temp/1.0": "chunk",
  "v1.0/readme.txt": "versioned",
  "x.nc/part0": "part",
  "runs/42": "numeric name",
  "7": "numeric root file",
  "root.txt": "at the root",
  "a/b/c/d/e/f/g/h.txt": "deep",
  "my data/file one.csv": "spaced",
};

async function awkward() {
  const emu = await startEmulator({
    files: AWKWARD,
    entries: [{ directoryLabel: "", filename: "empty-label.txt", file: "e" }],
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  return { emu, fs, [Symbol.asyncDispose]: () => emu.close() };
}

Deno.test("ls lists direct children, synthetic directories included, sorted", async () => {
  await using t = await awkward();
  const root = await t.fs.ls("");
  deepStrictEqual(root.map((i) => [i.name, i.type]), [
    ["7", "file"],
    ["a", "directory"],
    ["climate.zarr", "directory"],
    ["empty-label.txt", "file"],
    ["my data", "directory"],
    ["root.txt", "file"],
    ["runs", "directory"],
    ["v1.0", "directory"],
    ["x.nc", "directory"],
  ]);
  deepStrictEqual(
    (await t.fs.ls("climate.zarr")).map((i) => [i.name, i.type]),
    [
      ["climate.zarr/.zattrs", "file"],
      ["climate.zarr/.zgroup", "file"],
      ["climate.zarr/temp", "directory"],
    ],
  );
  deepStrictEqual((await t.fs.ls("x.nc")).map((i) => i.name), ["x.nc/part0"]);
  deepStrictEqual((await t.fs.ls("runs")).map((i) => i.name), ["runs/42"]);
  deepStrictEqual((await t.fs.ls("my data")).map((i) => i.name), [
    "my data/file one.csv",
  ]);
  deepStrictEqual((await t.fs.ls("a/b/c/d/e/f/g")).map((i) => i.name), [
    "a/b/c/d/e/f/g/h.txt",
  ]);
  equal(t.emu.counters.listingCalls, 1);
});

Deno.test("info describes files, synthetic directories and the root", async () => {
  await using t = await awkward();
  const file = await t.fs.info("climate.zarr/temp/.zarray");
  equal(file.type, "file");
  equal(file.size, 2);
  equal(file.id, t.emu.fileId("climate.zarr/temp/.zarray"));
  equal(file.contentType, "application/octet-stream");
  equal(typeof file.md5, "string");
  deepStrictEqual(await t.fs.info("v1.0"), {
    name: "v1.0",
    type: "directory",
    size: 0,
  });
  deepStrictEqual(await t.fs.info(""), {
    name: "",
    type: "directory",
    size: 0,
  });
  deepStrictEqual(await t.fs.ls("runs/42"), [await t.fs.info("runs/42")]);
  equal((await t.fs.info("7")).type, "file");
});

Deno.test("paths ignore repo://, leading, trailing and repeated slashes", async () => {
  await using t = await awkward();
  const plain = await t.fs.ls("climate.zarr/temp");
  deepStrictEqual(await t.fs.ls("repo://climate.zarr//temp/"), plain);
  deepStrictEqual(await t.fs.ls("/climate.zarr/temp"), plain);
  equal((await t.fs.info("/")).name, "");
  ok(await t.fs.exists("//v1.0/readme.txt"));
  equal(await t.fs.exists("v1.0/missing"), false);
});

Deno.test("a listed directory label beginning repo:// stays a directory, and takes no other file's path", async () => {
  await using emu = await startEmulator({
    entries: [
      { directoryLabel: "repo:/", filename: "README.md", file: "in repo:" },
      { directoryLabel: "", filename: "README.md", file: "the readme" },
    ],
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await fs.find(""), ["README.md", "repo:/README.md"]);
  const text = async (path: string) =>
    new TextDecoder().decode(await fs.catFile(path));
  equal(await text("README.md"), "the readme");
  equal(await text("repo://README.md"), "the readme", "the typed prefix");
  equal(await text("repo:/README.md"), "in repo:");
});

Deno.test("missing paths are NotFoundError; dot segments are TypeError", async () => {
  await using t = await awkward();
  const missing = await rejects(t.fs.ls("nope/deeper"), NotFoundError);
  void missing;
  await rejects(t.fs.info("climate.zarr/temp/9.9"), (e: unknown) => {
    ok(e instanceof NotFoundError);
    equal(e.code, "ENOENT");
    ok(e.message.includes("climate.zarr/temp/9.9"));
    return true;
  });
  await rejects(t.fs.ls("climate.zarr/../x"), TypeError);
  await rejects(t.fs.info("./root.txt"), TypeError);
  await rejects(t.fs.find(".."), TypeError);
});

Deno.test("a listing of zero files is an empty root", async () => {
  await using emu = await startEmulator({ files: {} });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await fs.ls(""), []);
  deepStrictEqual(await fs.info(""), { name: "", type: "directory", size: 0 });
  deepStrictEqual(await fs.find(""), []);
  deepStrictEqual(await fs.glob("**"), []);
});

Deno.test("concurrent first calls share one listing request; instances share the table", async () => {
  await using t = await awkward();
  await Promise.all([
    t.fs.ls(""),
    t.fs.info("7"),
    t.fs.find(""),
    t.fs.glob("**/.zarray"),
    t.fs.exists("x.nc"),
  ]);
  equal(t.emu.counters.listingCalls, 1);
  const again = new RepoFs({ host: t.emu.host, pid: t.emu.pid });
  await again.ls("");
  equal(t.emu.counters.listingCalls, 1, "same storage options: table kept");
  const other = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    version: ":draft",
  });
  await other.ls("");
  equal(t.emu.counters.listingCalls, 2, "other options: own listing");
  again.refresh();
  await again.ls("");
  equal(t.emu.counters.listingCalls, 3, "refresh() drops the table");
  await t.fs.ls("");
  equal(
    t.emu.counters.listingCalls,
    3,
    "the original instance keeps its table",
  );
});

Deno.test("building the table logs one info line with the counts", async () => {
  await using emu = await startEmulator({
    files: { "a/b.c/d": "x", "e": "y" },
  });
  const logger = recordingLogger();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, logger });
  await fs.ls("");
  await fs.ls("a");
  deepStrictEqual(
    logger.lines.filter((l) => l.level === "info").map((l) => l.msg),
    [`Routing table of ${emu.pid} built: 2 files, 3 directories`],
  );
});

Deno.test("find follows the seed's rules", async () => {
  await using t = await awkward();
  const all = await t.fs.find("");
  ok(!all.includes(""), "root never returned");
  ok(
    all.every((p) =>
      AWKWARD[p as keyof typeof AWKWARD] !== undefined ||
      p === "empty-label.txt"
    ),
  );
  equal(all.length, Object.keys(AWKWARD).length + 1, "files only by default");
  deepStrictEqual(all, [...all].sort());
  deepStrictEqual(await t.fs.find("climate.zarr"), [
    "climate.zarr/.zattrs",
    "climate.zarr/.zgroup",
    "climate.zarr/temp/.zarray",
    "climate.zarr/temp/0.0",
    "climate.zarr/temp/1.0",
  ]);
  deepStrictEqual(
    await t.fs.find("/climate.zarr/", { maxdepth: 1 }),
    ["climate.zarr/.zattrs", "climate.zarr/.zgroup"],
    "slashes stripped; maxdepth counts levels below the path",
  );
  deepStrictEqual(
    await t.fs.find("climate.zarr", { maxdepth: 1, withdirs: true }),
    [
      "climate.zarr",
      "climate.zarr/.zattrs",
      "climate.zarr/.zgroup",
      "climate.zarr/temp",
    ],
  );
  deepStrictEqual(
    await t.fs.find("", { maxdepth: 1 }),
    ["7", "empty-label.txt", "root.txt"],
  );
  deepStrictEqual(
    await t.fs.find("a", { maxdepth: 3, withdirs: true }),
    ["a", "a/b", "a/b/c", "a/b/c/d"],
  );
  deepStrictEqual(
    await t.fs.find("climate"),
    [],
    "a prefix of a name is not a path",
  );
  deepStrictEqual(
    await t.fs.find("runs/42"),
    ["runs/42"],
    "a file gives itself",
  );
  deepStrictEqual(await t.fs.find("missing"), []);
  await rejects(t.fs.find("", { maxdepth: 0 }), TypeError);
});

Deno.test("glob: every row of the seed's table", async () => {
  await using emu = await startEmulator({
    files: {
      "top.nc": "1",
      "d/a.nc": "2",
      "d/b.txt": "3",
      "d1/d2/x/y/z": "4",
      "d1/d2/x/y/z.nc": "5",
      "d1/d2/q.nc": "6",
      "d1/d2/x/deep.nc": "7",
      "d1/other.nc": "8",
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await fs.glob("*.nc"), ["top.nc"], "*.ext: root level only");
  deepStrictEqual(await fs.glob("d/*.nc"), ["d/a.nc"]);
  deepStrictEqual(await fs.glob("d1/d2/*/*/*"), [
    "d1/d2/x/y/z",
    "d1/d2/x/y/z.nc",
  ]);
  deepStrictEqual(await fs.glob("**/*.nc"), [
    "d/a.nc",
    "d1/d2/q.nc",
    "d1/d2/x/deep.nc",
    "d1/d2/x/y/z.nc",
    "d1/other.nc",
    "top.nc",
  ]);
  deepStrictEqual(await fs.glob("d1/d2/**/*.nc"), [
    "d1/d2/q.nc",
    "d1/d2/x/deep.nc",
    "d1/d2/x/y/z.nc",
  ]);
});

Deno.test("glob: ?, [...], ** in the middle, dot names and directories", async () => {
  await using t = await awkward();
  deepStrictEqual(await t.fs.glob("climate.zarr/temp/?.0"), [
    "climate.zarr/temp/0.0",
    "climate.zarr/temp/1.0",
  ]);
  deepStrictEqual(await t.fs.glob("climate.zarr/temp/[1-9].0"), [
    "climate.zarr/temp/1.0",
  ]);
  deepStrictEqual(await t.fs.glob("climate.zarr/temp/[!1].0"), [
    "climate.zarr/temp/0.0",
  ]);
  deepStrictEqual(await t.fs.glob("climate.zarr/**/.zarray"), [
    "climate.zarr/temp/.zarray",
  ]);
  deepStrictEqual(await t.fs.glob("a/**/h.txt"), ["a/b/c/d/e/f/g/h.txt"]);
  deepStrictEqual(await t.fs.glob("**/.z*"), [
    "climate.zarr/.zattrs",
    "climate.zarr/.zgroup",
    "climate.zarr/temp/.zarray",
  ]);
  deepStrictEqual(await t.fs.glob("*.*"), [
    "climate.zarr",
    "empty-label.txt",
    "root.txt",
    "v1.0",
    "x.nc",
  ], "directories are returned when they match");
  deepStrictEqual(await t.fs.glob("runs/42"), ["runs/42"], "a literal pattern");
  deepStrictEqual(await t.fs.glob("runs/43"), []);
});

Deno.test("bad options are TypeErrors naming the value", () => {
  const host = "http://127.0.0.1:1";
  for (
    const pid of [
      "10.5072",
      "doi:",
      "doi:10.5072",
      "hdl:1902.1",
      "perma:",
      "urn:nbn:de:1",
      "https://example.org/10.5072/FK2/X",
      "",
    ]
  ) {
    throws(
      () => new RepoFs({ host, pid }),
      (e: Error) =>
        e instanceof TypeError && e.message.includes(JSON.stringify(pid)),
    );
  }
  for (const headConcurrency of [0, -1, 1.5, NaN]) {
    throws(
      () => new RepoFs({ host, pid: "doi:1/2", headConcurrency }),
      /headConcurrency/,
    );
  }
  throws(
    () =>
      new RepoFs({
        host,
        pid: "doi:1/2",
        headConcurrency: "3" as unknown as number,
      }),
    /headConcurrency/,
  );
  throws(() => new RepoFs({ host: "", pid: "doi:1/2" }), /host/);
  throws(
    () => new RepoFs({ host: "ftp://x", pid: "doi:1/2" }),
    /http or https/,
  );
  throws(() => new RepoFs({ host: "a.org/path", pid: "doi:1/2" }), /host/);
  throws(
    () =>
      new RepoFs({
        host: "http://repo.example.org",
        pid: "doi:1/2",
        token: "secret",
      }),
    (e: Error) => /plain http/.test(e.message) && !e.message.includes("secret"),
  );
  ok(new RepoFs({ host: "http://localhost:1", pid: "doi:1/2", token: "s" }));
  ok(
    new RepoFs({
      host: "repo.example.org",
      pid: "doi:10.5072/FK2/ABC",
      token: "s",
    }),
  );
});

Deno.test("401 and 404 carry the repository's message, never the token", async () => {
  await using emu = await startEmulator({
    files: { "a": "1" },
    token: "right-token",
  });
  for (const token of [undefined, "wrong-token"]) {
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, token });
    await rejects(fs.ls(""), (e: unknown) => {
      ok(e instanceof RepoHttpError);
      equal(e.status, 401);
      ok(e.message.includes("Bad API key"), e.message);
      ok(!String(e).includes("token"), String(e));
      ok(!e.url.includes("?"));
      return true;
    });
  }
  const good = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: "right-token",
  });
  deepStrictEqual((await good.ls("")).map((i) => i.name), ["a"]);
  const missing = new RepoFs({
    host: emu.host,
    pid: "doi:10.5072/FK2/NOPE",
    token: "right-token",
  });
  await rejects(missing.ls(""), (e: unknown) => {
    ok(e instanceof RepoHttpError);
    equal(e.status, 404);
    ok(e.message.includes("doi:10.5072/FK2/NOPE"), e.message);
    return true;
  });
});

Deno.test("a malformed listing is a RepoProtocolError and is not cached", async () => {
  await using emu = await startEmulator({
    files: { "a": "1" },
    faults: { rules: [malformedJson()] },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(fs.ls(""), RepoProtocolError);
  deepStrictEqual(
    (await fs.ls("")).map((i) => i.name),
    ["a"],
    "next call lists again",
  );
  equal(emu.counters.listingCalls, 2);
});

Deno.test("duplicates, file/directory clashes and traversal names leave the rest readable", async () => {
  await using emu = await startEmulator({
    entries: [
      { directoryLabel: "a", filename: "b", file: "file that is also a dir" },
      { directoryLabel: "a/b", filename: "c", file: "below" },
      { directoryLabel: "dup", filename: "x", file: "first" },
      { directoryLabel: "dup", filename: "x", file: "second" },
      { directoryLabel: "../../etc", filename: "passwd", file: "hostile" },
      { directoryLabel: "ok", filename: "..", file: "hostile" },
      { directoryLabel: "/etc", filename: "shadow", file: "absolute" },
      { directoryLabel: "d", filename: "", file: "nameless" },
      { filename: "fine.txt", file: "fine" },
    ],
  });
  const logger = recordingLogger();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, logger });
  equal((await fs.info("a/b")).type, "directory");
  deepStrictEqual(await fs.find(""), ["a/b/c", "dup/x", "fine.txt"]);
  equal((await fs.info("dup/x")).id, emu.fileId("dup/x"));
  const rejected = await fs.rejectedEntries();
  deepStrictEqual(rejected.map((r) => r.path).sort(), [
    "../../etc/passwd",
    "/etc/shadow",
    "a/b",
    "d/",
    "dup/x",
    "ok/..",
  ]);
  ok(
    rejected.find((r) => r.path === "/etc/shadow")!.reason.includes("absolute"),
  );
  equal(
    rejected.find((r) => r.path === "d/")!.reason,
    "the file name is empty",
  );
  equal(await fs.exists("d"), false, "an empty filename is not a file d");
  equal(logger.lines.filter((l) => l.level === "warn").length, 6);
});

Deno.test("the version option reads the versions endpoint", async () => {
  await using emu = await startEmulator({
    files: { "new.txt": "latest" },
    versions: { "1.0": { "old/one.txt": "first version" } },
  });
  const v1 = new RepoFs({ host: emu.host, pid: emu.pid, version: "1.0" });
  deepStrictEqual(await v1.find(""), ["old/one.txt"]);
  for (const version of [":latest", ":draft", ":latest-published"]) {
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, version });
    deepStrictEqual(await fs.find(""), ["new.txt"], version);
  }
  const missing = new RepoFs({ host: emu.host, pid: emu.pid, version: "9.9" });
  await rejects(
    missing.ls(""),
    (e: unknown) => e instanceof RepoHttpError && e.status === 404,
  );
});

Deno.test("listCollection returns the collection's items", async () => {
  await using emu = await startEmulator({
    files: { a: "1" },
    alias: "climate",
    token: "tok",
  });
  const items = await listCollection({
    host: emu.host,
    alias: "climate",
    token: "tok",
  }) as Record<string, unknown>[];
  equal(items.length, 1);
  equal(
    `${items[0].protocol}:${items[0].authority}/${items[0].identifier}`,
    emu.pid,
  );
  equal(items[0].type, "dataset");
  await rejects(
    listCollection({ host: emu.host, alias: "nope", token: "tok" }),
    (e: unknown) => e instanceof RepoHttpError && e.status === 404,
  );
  await rejects(
    listCollection({ host: emu.host, alias: "climate" }),
    /Bad API key/,
  );
});

Deno.test("the routing table builder adds files, then finishes", () => {
  const builder: RoutingTableBuilder = RoutingTable.builder();
  builder.add({ path: "x", id: 1, size: 0 });
  strictEqual(builder.finish().fileCount, 1);
});

Deno.test("the routing table holds the dataset as a tree", () => {
  const table = RoutingTable.build([{ path: "a/b.c/d", id: 1, size: 3 }]);
  deepStrictEqual(table.children("a"), [{
    name: "a/b.c",
    type: "directory",
    size: 0,
  }]);
});

Deno.test("a table built file by file equals one built whole", () => {
  const builder = RoutingTable.builder();
  builder.add({ path: "a/b", id: 1, size: 3 });
  builder.add({ path: "a/c", id: 2, size: 4 });
  equal(builder.finish().fileCount, 2);
});

Deno.test("an empty directory is listed; a made one stays", () => {
  const warnings: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (line: string) => warnings.push(line),
  };
  const builder = RoutingTable.builder(logger);
  builder.addDirectory("a/empty", 0);
  builder.add({ path: "b/x", id: 1, size: 1 });
  builder.addDirectory("b", 2);
  builder.add({ path: "c", id: 3, size: 1 });
  builder.addDirectory("c", 4);
  const table = builder.finish();
  deepStrictEqual(table.children("a"), [{
    name: "a/empty",
    type: "directory",
    size: 0,
  }]);
  deepStrictEqual(table.children("a/empty"), []);
  deepStrictEqual(table.find("", { withdirs: true }), [
    "a",
    "a/empty",
    "b",
    "b/x",
    "c",
  ]);
  equal(table.get("c")?.type, "file");
  deepStrictEqual(table.rejected.map((entry) => entry.id), [4]);
  equal(warnings.length, 1);
});

Deno.test("keyProblem names a key that is not plain", () => {
  strictEqual(keyProblem("climate.zarr/.zgroup"), undefined);
  strictEqual(keyProblem("a/../b"), 'it has a ".." segment');
  strictEqual(keyProblem("/etc"), "it is absolute (starts with /)");
});

Deno.test("normalizePath drops repo://, slashes and dots", () => {
  strictEqual(
    normalizePath("repo:///climate.zarr//temp/"),
    "climate.zarr/temp",
  );
  strictEqual(normalizePath("/"), "");
  throws(() => normalizePath("a/../b"), TypeError);
});

Deno.test("listedKey normalizes a listed path", () => {
  strictEqual(listedKey("repo://README.md"), "repo:/README.md");
  strictEqual(normalizePath("repo:/README.md"), "repo:/README.md");
  strictEqual(listedKey("data//a.nc"), "data/a.nc");
});

Deno.test("parentKey of a root-level key is empty", () => {
  strictEqual(parentKey("a/b.c/d"), "a/b.c");
  strictEqual(parentKey("top.txt"), "");
});

Deno.test("baseName is the last segment", () => {
  strictEqual(baseName("a/b.c/d"), "d");
});

import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { join } from "node:path";
import {
  isInside,
  OutputRoot,
  UnsafePathError,
  unsafePathReason,
} from "../src/cli/safe_path.ts";

Deno.test("unsafePathReason accepts plain relative paths", () => {
  for (
    const path of [
      "a.txt",
      "climate.zarr/.zgroup",
      "my data/file one.csv",
      "..hidden/x",
      "a/...",
      "logs/run 12:00.log",
      "ünïcödé/日本.txt",
      `d/${"é".repeat(127)}x`, // 255 bytes
    ]
  ) {
    equal(unsafePathReason(path), undefined, path);
  }
});

Deno.test("unsafePathReason refuses what could escape or confuse", () => {
  const cases: [string, string][] = [
    ["", "it is empty"],
    ["/etc/passwd", "it is absolute (starts with /)"],
    ["../../etc/passwd", 'it has a ".." segment'],
    ["a/../../b", 'it has a ".." segment'],
    ["a/./b", 'it has a "." segment'],
    ["a//b", "it has an empty segment"],
    ["a/", "it has an empty segment"],
    ["a\\b/c", "it has a backslash"],
    ["..\\..\\x", "it has a backslash"],
    ["C:evil", "it has a drive letter"],
    ["d/c:/x", "it has a drive letter"],
    ["x:y", "it has a drive letter"],
    ["nul\0x", "it has a control character"],
    ["bell\u0007", "it has a control character"],
    ["esc\u001b[2J", "it has a control character"],
    ["del\u007f", "it has a control character"],
    ["c1\u0085", "it has a control character"],
    ["line\nbreak", "it has a control character"],
    [
      `d/${"é".repeat(128)}`,
      "it has a name of 256 bytes, longer than file systems take (255)",
    ],
  ];
  for (const [path, reason] of cases) {
    equal(unsafePathReason(path), reason, JSON.stringify(path));
  }
});

Deno.test("isInside compares resolved absolute paths", () => {
  ok(isInside("/data/out", "/data/out"));
  ok(isInside("/data/out", "/data/out/a/b"));
  ok(isInside("/data/out", "/data/out/..x"));
  ok(!isInside("/data/out", "/data/outside"));
  ok(!isInside("/data/out", "/data"));
  ok(!isInside("/data/out", "/etc/passwd"));
});

async function tempTree() {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("OutputRoot creates the folder and the directories on the way", async () => {
  await using t = await tempTree();
  const root = await OutputRoot.open(join(t.dir, "new", "out"));
  equal(root.path, join(t.dir, "new", "out"));
  const target = await root.prepare("a/b/c.txt");
  equal(target, join(t.dir, "new", "out", "a", "b", "c.txt"));
  ok((await Deno.stat(join(root.path, "a", "b"))).isDirectory);
  equal(await root.prepare("top.txt"), join(root.path, "top.txt"));
});

Deno.test("OutputRoot refuses unsafe text without touching the disk", async () => {
  await using t = await tempTree();
  const root = await OutputRoot.open(join(t.dir, "out"));
  for (const path of ["../x", "/abs", "a\\b/c", "C:evil", "x/\u0007"]) {
    await rejects(root.prepare(path), UnsafePathError, path);
  }
  deepStrictEqual(await names(t.dir), ["out"]);
});

Deno.test("OutputRoot refuses a symlink leading outside, at any depth", async () => {
  await using t = await tempTree();
  const outside = join(t.dir, "outside");
  await Deno.mkdir(outside);
  const root = await OutputRoot.open(join(t.dir, "out"));
  await Deno.symlink(outside, join(root.path, "link"));
  await Deno.mkdir(join(root.path, "deep", "er"), { recursive: true });
  await Deno.symlink("../../../outside", join(root.path, "deep", "er", "up"));
  for (const path of ["link/x", "link/new/dir/x", "deep/er/up/x"]) {
    await rejects(
      root.prepare(path),
      (error: unknown) =>
        error instanceof UnsafePathError &&
        error.reason.includes("leads outside the output folder"),
      path,
    );
  }
  deepStrictEqual(await names(outside), []);
});

Deno.test("OutputRoot refuses a dangling symlink, and accepts one staying inside for one of the paths it makes one file", async () => {
  await using t = await tempTree();
  const root = await OutputRoot.open(join(t.dir, "out"));
  await Deno.symlink(join(t.dir, "nowhere"), join(root.path, "dangling"));
  await rejects(
    root.prepare("dangling/x"),
    (error: unknown) =>
      error instanceof UnsafePathError && error.reason.includes("dangling"),
  );
  await Deno.mkdir(join(root.path, "real"));
  await Deno.symlink("real", join(root.path, "alias"));
  equal(await root.prepare("alias/x"), join(root.path, "alias", "x"));
  equal(await root.prepare("alias/x"), join(root.path, "alias", "x"), "again");
  await rejects(
    root.prepare("real/x"),
    (error: unknown) =>
      error instanceof UnsafePathError &&
      error.reason.includes('the same file as "alias/x"'),
  );
  equal(await Deno.lstat(join(t.dir, "nowhere")).catch(() => null), null);
});

Deno.test("OutputRoot follows a symlinked output folder itself", async () => {
  await using t = await tempTree();
  await Deno.mkdir(join(t.dir, "real-out"));
  await Deno.symlink(join(t.dir, "real-out"), join(t.dir, "out"));
  const root = await OutputRoot.open(join(t.dir, "out"));
  equal(root.path, join(t.dir, "real-out"));
  equal(await root.prepare("a/b"), join(t.dir, "real-out", "a", "b"));
});

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
  return found.sort();
}

Deno.test("OutputRoot.prepare is safe to call concurrently for nested paths", async () => {
  await using t = await tempTree();
  const paths = [
    "d/q",
    "d/a/b/c/x",
    "d/a/y",
    "d/e/f",
    "d/a/b/z",
    "d/e/g/h/i/j",
    "d/a/b/c/w",
    "d/e/k",
  ];
  for (let round = 0; round < 30; round++) {
    const root = await OutputRoot.open(join(t.dir, `out${round}`));
    // Staggered starts: some calls create directories while others walk them.
    const targets = await Promise.all(
      paths.map(async (p, i) => {
        for (let k = 0; k < (i + round) % 4; k++) await Promise.resolve();
        if (i % 3 === round % 3) await new Promise((r) => setTimeout(r, 0));
        return await root.prepare(p);
      }),
    );
    deepStrictEqual(targets, paths.map((p) => join(root.path, p)));
  }
});

Deno.test("an unsafe path error names the path", () => {
  const error = new UnsafePathError("../x", 'it has a ".." segment');
  strictEqual(error.message, 'refused "../x": it has a ".." segment');
  strictEqual(error.reason, 'it has a ".." segment');
});

Deno.test("unsafe path reasons", () => {
  strictEqual(unsafePathReason("climate.zarr/.zgroup"), undefined);
  strictEqual(unsafePathReason("../../etc/passwd"), 'it has a ".." segment');
  strictEqual(
    unsafePathReason("/etc/passwd"),
    "it is absolute (starts with /)",
  );
  strictEqual(unsafePathReason("C:evil"), "it has a drive letter");
  strictEqual(unsafePathReason("a\u001b[2J"), "it has a control character");
  strictEqual(
    unsafePathReason(`d/${"x".repeat(256)}`),
    "it has a name of 256 bytes, longer than file systems take (255)",
  );
});

Deno.test("isInside is true at and below root", () => {
  strictEqual(isInside("/data/out", "/data/out/a/b"), true);
  strictEqual(isInside("/data/out", "/data/out"), true);
  strictEqual(isInside("/data/out", "/data/outside"), false);
});

Deno.test("the output root places dataset paths", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const root = await OutputRoot.open(dir);
    const target = await root.prepare("a/b.txt");
    strictEqual(target, join(root.path, "a", "b.txt"));
    strictEqual((await Deno.stat(join(root.path, "a"))).isDirectory, true); // created
    await Deno.writeTextFile(target, "hello");
    await rejects(root.prepare("../b.txt"), UnsafePathError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

import {
  deepStrictEqual,
  equal,
  strictEqual,
  throws,
} from "node:assert/strict";
import { compileGlob } from "../src/tree/glob.ts";

type EntryType = "file" | "directory";

/** A routing table built from file keys: every ancestor is a directory. */
function tableOf(files: string[]): Map<string, EntryType> {
  const table = new Map<string, EntryType>([["", "directory"]]);
  for (const file of files) {
    table.set(file, "file");
    const segments = file.split("/");
    for (let n = 1; n < segments.length; n++) {
      table.set(segments.slice(0, n).join("/"), "directory");
    }
  }
  return table;
}

/** The seed's find rules, with API.md's `withdirs` and file-path cases. */
function find(
  table: Map<string, EntryType>,
  path: string,
  maxdepth: number | undefined,
): string[] {
  if (table.get(path) === "file") return [path];
  const prefix = path === "" ? "" : `${path}/`;
  const out: string[] = [];
  for (const key of table.keys()) {
    if (key === "") continue;
    if (path !== "" && key !== path && !key.startsWith(prefix)) continue;
    const relative = key === path ? "" : key.slice(prefix.length);
    if (
      relative !== "" && maxdepth !== undefined &&
      relative.split("/").length > maxdepth
    ) continue;
    out.push(key);
  }
  return out.sort();
}

/** What `RepoFs.glob` does with a compiled pattern. */
function glob(table: Map<string, EntryType>, pattern: string): string[] {
  const compiled = compileGlob(pattern);
  if (compiled.literal) {
    return table.has(compiled.prefix) ? [compiled.prefix] : [];
  }
  return find(table, compiled.prefix, compiled.depth).filter((key) =>
    compiled.matches(key, table.get(key) === "directory")
  );
}

function shape(pattern: string) {
  const { prefix, depth, literal } = compileGlob(pattern);
  return { prefix, depth, literal };
}

const seedTable = tableOf([
  "top.ext",
  "top.txt",
  "dir/a.ext",
  "dir/b.txt",
  "dir/sub/deep.ext",
  "d1/d2/x.ext",
  "d1/d2/p/q/r",
  "d1/d2/p/q/s.ext",
  "d1/d2/p/q2/t/u.ext",
  "d1/d2/p/v/w/z.txt",
]);

Deno.test("seed table: *.ext is root-level only, depth 1", () => {
  deepStrictEqual(shape("*.ext"), { prefix: "", depth: 1, literal: false });
  deepStrictEqual(glob(seedTable, "*.ext"), ["top.ext"]);
});

Deno.test("seed table: dir/*.ext looks one level below dir", () => {
  deepStrictEqual(shape("dir/*.ext"), {
    prefix: "dir",
    depth: 1,
    literal: false,
  });
  deepStrictEqual(glob(seedTable, "dir/*.ext"), ["dir/a.ext"]);
});

Deno.test("seed table: d1/d2/*/*/* looks three levels below d1/d2", () => {
  deepStrictEqual(shape("d1/d2/*/*/*"), {
    prefix: "d1/d2",
    depth: 3,
    literal: false,
  });
  deepStrictEqual(glob(seedTable, "d1/d2/*/*/*"), [
    "d1/d2/p/q/r",
    "d1/d2/p/q/s.ext",
    "d1/d2/p/q2/t",
    "d1/d2/p/v/w",
  ]);
});

Deno.test("seed table: **/*.ext is unlimited from the root", () => {
  deepStrictEqual(shape("**/*.ext"), {
    prefix: "",
    depth: undefined,
    literal: false,
  });
  deepStrictEqual(glob(seedTable, "**/*.ext"), [
    "d1/d2/p/q/s.ext",
    "d1/d2/p/q2/t/u.ext",
    "d1/d2/x.ext",
    "dir/a.ext",
    "dir/sub/deep.ext",
    "top.ext",
  ]);
});

Deno.test("seed table: d1/d2/**/*.ext is unlimited below d1/d2", () => {
  deepStrictEqual(shape("d1/d2/**/*.ext"), {
    prefix: "d1/d2",
    depth: undefined,
    literal: false,
  });
  deepStrictEqual(glob(seedTable, "d1/d2/**/*.ext"), [
    "d1/d2/p/q/s.ext",
    "d1/d2/p/q2/t/u.ext",
    "d1/d2/x.ext",
  ]);
});

Deno.test("prefix stops at the last / before the first wildcard of any kind", () => {
  deepStrictEqual(shape("a/b?c/d"), { prefix: "a", depth: 2, literal: false });
  deepStrictEqual(shape("a/b/[xy]"), {
    prefix: "a/b",
    depth: 1,
    literal: false,
  });
  deepStrictEqual(shape("a/x*y/**"), {
    prefix: "a",
    depth: undefined,
    literal: false,
  });
});

Deno.test("a pattern without wildcards is literal: the path if it exists", () => {
  deepStrictEqual(shape("dir/sub"), {
    prefix: "dir/sub",
    depth: 0,
    literal: true,
  });
  deepStrictEqual(glob(seedTable, "dir/sub"), ["dir/sub"]);
  deepStrictEqual(glob(seedTable, "dir/a.ext"), ["dir/a.ext"]);
  deepStrictEqual(glob(seedTable, "dir/missing"), []);
  equal(compileGlob("dir/a.ext").matches("dir/a.ext"), true);
});

Deno.test("the root is never a result", () => {
  for (const pattern of ["", "/", "//", "repo://", "repo:///"]) {
    deepStrictEqual(shape(pattern), { prefix: "", depth: 1, literal: false });
    deepStrictEqual(glob(seedTable, pattern), []);
  }
  equal(compileGlob("**").matches("", true), false);
});

Deno.test("repo://, leading and repeated slashes are dropped; a trailing one keeps directories only", () => {
  const plain = shape("d1/d2/*/*.ext");
  for (
    const pattern of [
      "repo://d1/d2/*/*.ext",
      "/d1/d2/*/*.ext",
      "///d1//d2///*//*.ext",
    ]
  ) {
    deepStrictEqual(shape(pattern), plain, pattern);
    equal(compileGlob(pattern).matches("d1/d2/p/s.ext"), true, pattern);
  }
  for (const pattern of ["d1/d2/*/*.ext/", "repo:///d1/d2/*/*.ext//"]) {
    deepStrictEqual(shape(pattern), plain, pattern);
    equal(compileGlob(pattern).matches("d1/d2/p/s.ext", false), false);
    equal(compileGlob(pattern).matches("d1/d2/p/s.ext", true), true);
  }
  deepStrictEqual(shape("repo://dir/sub/"), shape("dir/sub"));
  const table = tableOf(["a", "a.b/c", "ab/d", "sub/t.nc", "sub/deeper/t.nc"]);
  deepStrictEqual(glob(table, "*/"), ["a.b", "ab", "sub"]);
  deepStrictEqual(glob(table, "sub/**/"), ["sub", "sub/deeper"]);
  deepStrictEqual(glob(table, "**/*.nc/"), []);
  deepStrictEqual(
    glob(table, "sub/t.nc/"),
    ["sub/t.nc"],
    "a literal names its path",
  );
  equal(
    compileGlob("sub/t.nc/").matches("sub/t.nc", false),
    true,
    "as `get` tests whether a pattern covers a listed file",
  );
});

/** Does `name` match the one-name pattern `pattern` (`*`, `?`, literal characters)? By recursion, the slow and plain way. */
function namePatternMatches(pattern: string, name: string): boolean {
  const memo = new Map<string, boolean>();
  const at = (p: number, n: number): boolean => {
    const key = `${p},${n}`;
    if (memo.has(key)) return memo.get(key)!;
    let result: boolean;
    if (p === pattern.length) result = n === name.length;
    else if (pattern[p] === "*") {
      result = at(p + 1, n) || (n < name.length && at(p, n + 1));
    } else {
      result = n < name.length &&
        (pattern[p] === "?" || pattern[p] === name[n]) && at(p + 1, n + 1);
    }
    memo.set(key, result);
    return result;
  };
  return at(0, 0);
}

Deno.test("stars inside a name match as plain recursion says, however many (and in time linear in the name)", () => {
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pick = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[next(alphabet.length)]).join("");
  for (let round = 0; round < 3000; round++) {
    const pattern = pick("ab*?", 1 + next(8)).replace(/\*\*+/g, "*");
    if (pattern === "*") continue;
    const name = pick("ab", next(9));
    equal(
      compileGlob(`d/${pattern}/x`).matches(`d/${name}/x`),
      namePatternMatches(pattern, name),
      `${pattern} against ${name}`,
    );
  }
  // A backtracking regex takes minutes over these; one that takes each piece at its first place, no time.
  const name = "a".repeat(64);
  equal(compileGlob(`${"*a".repeat(24)}b`).matches(name), false);
  equal(compileGlob(`${"*a".repeat(24)}`).matches(name), true);
  equal(compileGlob(`${"**/".repeat(30)}nomatch`).matches(name), false);
});

Deno.test(". and .. segments are a TypeError", () => {
  throws(() => compileGlob("a/../*"), TypeError);
  throws(() => compileGlob("./*.ext"), TypeError);
});

Deno.test("* stays inside one name", () => {
  const star = compileGlob("a/*");
  equal(star.matches("a/b"), true);
  equal(star.matches("a/.hidden"), true);
  equal(star.matches("a/b/c"), false);
  equal(star.matches("a"), false);
  const infix = compileGlob("a*c");
  equal(infix.matches("ac"), true);
  equal(infix.matches("abbc"), true);
  equal(infix.matches("ab/c"), false);
});

Deno.test("? matches exactly one character, never /", () => {
  const q = compileGlob("t?.nc");
  equal(q.matches("t1.nc"), true);
  equal(q.matches("t.nc"), false);
  equal(q.matches("t12.nc"), false);
  equal(compileGlob("a?b").matches("a/b"), false);
  equal(compileGlob("?").matches("😀"), true);
});

Deno.test("[...] sets, ranges and [!...] negation", () => {
  const set = compileGlob("v[abc]");
  equal(set.matches("va"), true);
  equal(set.matches("vd"), false);
  const range = compileGlob("date=2019-10-0[1-4]");
  equal(range.matches("date=2019-10-02"), true);
  equal(range.matches("date=2019-10-05"), false);
  const negated = compileGlob("v[!abc]");
  equal(negated.matches("vd"), true);
  equal(negated.matches("va"), false);
  equal(compileGlob("v[!a-c]x").matches("vbx"), false);
  equal(compileGlob("v[a-cx-z]").matches("vy"), true);
});

Deno.test("[^...] is not a negation: ^ is a member, as in fsspec", () => {
  const caret = compileGlob("[^a]x");
  equal(caret.matches("^x"), true);
  equal(caret.matches("ax"), true);
  equal(caret.matches("bx"), false);
});

Deno.test("class corner cases follow fsspec's translation", () => {
  equal(compileGlob("[]]").matches("]"), true);
  equal(compileGlob("[!]]").matches("]"), false);
  equal(compileGlob("[!]]").matches("x"), true);
  equal(compileGlob("[a-]").matches("-"), true);
  equal(compileGlob("[-a]").matches("-"), true);
  equal(compileGlob("[+--]").matches(","), true);
  equal(compileGlob("[+--]").matches("."), false);
  equal(compileGlob("[\\]").matches("\\"), true);
  equal(compileGlob("[[]").matches("["), true);
  equal(compileGlob("[a|&~]").matches("|"), true);
  equal(compileGlob("[z-a]").matches("z"), false, "a reversed range is empty");
  equal(compileGlob("[!z-a]").matches("q"), true, "its negation is any char");
  equal(compileGlob("[😀-😂]").matches("😁"), true);
  const unclosed = compileGlob("a[b");
  equal(unclosed.literal, false);
  equal(unclosed.matches("a[b"), true);
  equal(unclosed.matches("ab"), false);
});

Deno.test("no class ever matches /", () => {
  const table = tableOf(["a/b", "q/a/b", "axb"]);
  deepStrictEqual(glob(table, "**/a[!x]b"), []);
  deepStrictEqual(glob(table, "**/a[%-0]b"), []);
  equal(compileGlob("a[!x]b").matches("a/b"), false);
  equal(compileGlob("[!z-a]").matches("/"), false);
});

Deno.test("** at the start spans zero or more directories", () => {
  const g = compileGlob("**/x.c");
  equal(g.matches("x.c"), true);
  equal(g.matches("a/x.c"), true);
  equal(g.matches("a/b/c/x.c"), true);
  equal(g.matches("a/yx.c"), false);
});

Deno.test("** in the middle spans zero or more directories", () => {
  const g = compileGlob("a/**/b/*.c");
  deepStrictEqual(
    { prefix: g.prefix, depth: g.depth },
    { prefix: "a", depth: undefined },
  );
  equal(g.matches("a/b/x.c"), true);
  equal(g.matches("a/q/r/b/x.c"), true);
  equal(g.matches("a/qb/x.c"), false);
  equal(g.matches("a/b/s/x.c"), false);
});

Deno.test("a/** gives everything below a, and a itself as a directory", () => {
  const g = compileGlob("a/**");
  deepStrictEqual(
    { prefix: g.prefix, depth: g.depth },
    { prefix: "a", depth: undefined },
  );
  equal(g.matches("a/x"), true);
  equal(g.matches("a/x/y/z"), true);
  equal(g.matches("a", true), true);
  equal(g.matches("a"), false, "a file a is not below a");
  equal(g.matches("ab/x"), false);
  deepStrictEqual(glob(tableOf(["a/x", "a/y/z", "ab"]), "a/**"), [
    "a",
    "a/x",
    "a/y",
    "a/y/z",
  ]);
  deepStrictEqual(glob(tableOf(["a", "b/c"]), "a/**"), []);
});

Deno.test("*/** does not give root-level files", () => {
  deepStrictEqual(glob(tableOf(["f", "d/g", "d/e/h"]), "*/**"), [
    "d",
    "d/e",
    "d/e/h",
    "d/g",
  ]);
});

Deno.test("** alone gives every key", () => {
  deepStrictEqual(glob(seedTable, "**"), [...seedTable.keys()].slice(1).sort());
});

Deno.test("** inside a name is rejected, as fsspec rejects it", () => {
  throws(() => compileGlob("a**b"), TypeError);
  throws(() => compileGlob("d/**.nc"), TypeError);
  throws(() => compileGlob("x/***/y"), TypeError);
});

Deno.test("dot names match like any other name", () => {
  const table = tableOf([
    "x.zarr/.zgroup",
    "x.zarr/.zattrs",
    "x.zarr/t/.zarray",
    "x.zarr/t/0.0",
  ]);
  deepStrictEqual(glob(table, "**/.zarray"), ["x.zarr/t/.zarray"]);
  deepStrictEqual(glob(table, "x.zarr/.z*"), [
    "x.zarr/.zattrs",
    "x.zarr/.zgroup",
  ]);
  deepStrictEqual(glob(table, "*/*"), [
    "x.zarr/.zattrs",
    "x.zarr/.zgroup",
    "x.zarr/t",
  ]);
  equal(compileGlob("x.zarr/?zgroup").matches("x.zarr/.zgroup"), true);
});

Deno.test("regex-special characters in names are literal", () => {
  const version = compileGlob("v1.0/*");
  equal(version.prefix, "v1.0");
  equal(version.matches("v1.0/a"), true);
  equal(version.matches("v1x0/a"), false);
  const punct = compileGlob("a+b/(x)/*");
  equal(punct.prefix, "a+b/(x)");
  equal(punct.matches("a+b/(x)/f"), true);
  equal(punct.matches("aab/x/f"), false);
  for (const c of ["\\", ".", "+", "(", ")", "|", "^", "$", "{", "}"]) {
    const name = `f${c}oo.txt`;
    equal(compileGlob(`s/f${c}oo.*`).matches(`s/${name}`), true, name);
    equal(compileGlob(`s/f${c}oo.*`).matches("s/fXoo.txt"), false, name);
  }
});

// fsspec's GLOB_POSIX_TESTS (fsspec/tests/test_spec.py, 2026.7.0), but for
// its rows on "[]" and "[!]", which fsspec took up after 2026.1.
const FSSPEC_FILES = [
  "test0.json",
  "test0.yaml",
  "test0/test0.json",
  "test0/test0.yaml",
  "test0/test1/test0.json",
  "test0/test1/test0.yaml",
  "test0/test1/test2/test0.json",
  "test0/test1/test2/test0.yaml",
  "test0/test2/test0.json",
  "test0/test2/test0.yaml",
  "test0/test2/test1/test0.json",
  "test0/test2/test1/test0.yaml",
  "test0/test2/test1/test3/test0.json",
  "test0/test2/test1/test3/test0.yaml",
  "test1.json",
  "test1.yaml",
  "test1/test0.json",
  "test1/test0.yaml",
  "test1/test0/test0.json",
  "test1/test0/test0.yaml",
  "special_chars/f\\oo.txt",
  "special_chars/f.oo.txt",
  "special_chars/f+oo.txt",
  "special_chars/f(oo.txt",
  "special_chars/f)oo.txt",
  "special_chars/f|oo.txt",
  "special_chars/f^oo.txt",
  "special_chars/f$oo.txt",
  "special_chars/f{oo.txt",
  "special_chars/f}oo.txt",
];
const fsspecTable = tableOf(FSSPEC_FILES);
const below = (dir: string) =>
  [...fsspecTable.keys()].filter((k) => k.startsWith(`${dir}/`));

const FSSPEC_CASES: [string, string[]][] = [
  ["nonexistent", []],
  ["test0.json", ["test0.json"]],
  ["test0", ["test0"]],
  ["test1/test0.yaml", ["test1/test0.yaml"]],
  ["test0/test[1-2]", ["test0/test1", "test0/test2"]],
  ["test0/test[1-2]/*", [
    "test0/test1/test0.json",
    "test0/test1/test0.yaml",
    "test0/test1/test2",
    "test0/test2/test0.json",
    "test0/test2/test0.yaml",
    "test0/test2/test1",
  ]],
  ["test0/test[1-2]/*.[j]*", [
    "test0/test1/test0.json",
    "test0/test2/test0.json",
  ]],
  ["special_chars/f\\oo.*", ["special_chars/f\\oo.txt"]],
  ["special_chars/f.oo.*", ["special_chars/f.oo.txt"]],
  ["special_chars/f+oo.*", ["special_chars/f+oo.txt"]],
  ["special_chars/f(oo.*", ["special_chars/f(oo.txt"]],
  ["special_chars/f)oo.*", ["special_chars/f)oo.txt"]],
  ["special_chars/f|oo.*", ["special_chars/f|oo.txt"]],
  ["special_chars/f^oo.*", ["special_chars/f^oo.txt"]],
  ["special_chars/f$oo.*", ["special_chars/f$oo.txt"]],
  ["special_chars/f{oo.*", ["special_chars/f{oo.txt"]],
  ["special_chars/f}oo.*", ["special_chars/f}oo.txt"]],
  ["*", [
    "special_chars",
    "test0",
    "test0.json",
    "test0.yaml",
    "test1",
    "test1.json",
    "test1.yaml",
  ]],
  ["*.yaml", ["test0.yaml", "test1.yaml"]],
  ["**", [...fsspecTable.keys()].slice(1)],
  ["*/*.yaml", ["test0/test0.yaml", "test1/test0.yaml"]],
  ["**/*.yaml", FSSPEC_FILES.filter((f) => f.endsWith(".yaml"))],
  ["*/test1/*", [
    "test0/test1/test0.json",
    "test0/test1/test0.yaml",
    "test0/test1/test2",
  ]],
  ["*/test1/*.yaml", ["test0/test1/test0.yaml"]],
  ["**/test1/*", [
    "test0/test1/test0.json",
    "test0/test1/test0.yaml",
    "test0/test1/test2",
    "test0/test2/test1/test0.json",
    "test0/test2/test1/test0.yaml",
    "test0/test2/test1/test3",
    "test1/test0",
    "test1/test0.json",
    "test1/test0.yaml",
  ]],
  ["**/test1/*.yaml", [
    "test0/test1/test0.yaml",
    "test0/test2/test1/test0.yaml",
    "test1/test0.yaml",
  ]],
  ["*/test1/**", ["test0/test1", ...below("test0/test1")]],
  ["**/test1/**", [
    "test0/test1",
    ...below("test0/test1"),
    "test0/test2/test1",
    ...below("test0/test2/test1"),
    "test1",
    ...below("test1"),
  ]],
  ["test0/*", [
    "test0/test0.json",
    "test0/test0.yaml",
    "test0/test1",
    "test0/test2",
  ]],
  ["test0/*.yaml", ["test0/test0.yaml"]],
  ["test0/**", ["test0", ...below("test0")]],
  ["test0/*/*.yaml", ["test0/test1/test0.yaml", "test0/test2/test0.yaml"]],
  ["test0/**/*.yaml", below("test0").filter((k) => k.endsWith(".yaml"))],
  ["test0/*/test1/*", [
    "test0/test2/test1/test0.json",
    "test0/test2/test1/test0.yaml",
    "test0/test2/test1/test3",
  ]],
  ["test0/*/test1/*.yaml", ["test0/test2/test1/test0.yaml"]],
  ["test0/**/test1/*", [
    "test0/test1/test0.json",
    "test0/test1/test0.yaml",
    "test0/test1/test2",
    "test0/test2/test1/test0.json",
    "test0/test2/test1/test0.yaml",
    "test0/test2/test1/test3",
  ]],
  ["test0/**/test1/*.yaml", [
    "test0/test1/test0.yaml",
    "test0/test2/test1/test0.yaml",
  ]],
  ["test0/*/test1/**", ["test0/test2/test1", ...below("test0/test2/test1")]],
  ["test0/**/test1/**", [
    "test0/test1",
    ...below("test0/test1"),
    "test0/test2/test1",
    ...below("test0/test2/test1"),
  ]],
  ["test0/", ["test0"]],
  ["test0/test[1-2]/", ["test0/test1", "test0/test2"]],
  ["*/", ["special_chars", "test0", "test1"]],
  ["**/", [
    "special_chars",
    "test0",
    "test0/test1",
    "test0/test1/test2",
    "test0/test2",
    "test0/test2/test1",
    "test0/test2/test1/test3",
    "test1",
    "test1/test0",
  ]],
  ["*/test1/*/", ["test0/test1/test2"]],
  ["**/test1/*/", [
    "test0/test1/test2",
    "test0/test2/test1/test3",
    "test1/test0",
  ]],
  ["*/test1/**/", ["test0/test1", "test0/test1/test2"]],
  ["**/test1/**/", [
    "test0/test1",
    "test0/test1/test2",
    "test0/test2/test1",
    "test0/test2/test1/test3",
    "test1",
    "test1/test0",
  ]],
  ["test0/*/", ["test0/test1", "test0/test2"]],
  ["test0/**/", [
    "test0",
    "test0/test1",
    "test0/test1/test2",
    "test0/test2",
    "test0/test2/test1",
    "test0/test2/test1/test3",
  ]],
  ["test0/*/test1/*/", ["test0/test2/test1/test3"]],
  ["test0/**/test1/*/", ["test0/test1/test2", "test0/test2/test1/test3"]],
  ["test0/*/test1/**/", ["test0/test2/test1", "test0/test2/test1/test3"]],
  ["test0/**/test1/**/", [
    "test0/test1",
    "test0/test1/test2",
    "test0/test2/test1",
    "test0/test2/test1/test3",
  ]],
];

for (const [pattern, expected] of FSSPEC_CASES) {
  Deno.test(`fsspec GLOB_POSIX_TESTS: ${pattern}`, () => {
    deepStrictEqual(glob(fsspecTable, pattern), [...expected].sort());
  });
}

Deno.test("a compiled glob matches paths", () => {
  const glob = compileGlob("climate.zarr/t?mp/.z*");
  strictEqual(glob.prefix, "climate.zarr");
  strictEqual(glob.depth, 2);
  strictEqual(glob.matches("climate.zarr/temp/.zarray"), true);
});

Deno.test("compileGlob compiles a pattern once", () => {
  const glob = compileGlob("repo://d1/d2/**");
  strictEqual(glob.prefix, "d1/d2");
  strictEqual(glob.depth, undefined);
  strictEqual(glob.matches("d1/d2/x/y/t.nc"), true);
  strictEqual(glob.matches("d1/d2", true), true); // the directory the `**` starts at

  const ncFiles = compileGlob("*.nc");
  strictEqual(ncFiles.depth, 1);
  strictEqual(ncFiles.matches("t.nc"), true);
  strictEqual(ncFiles.matches("sub/t.nc"), false); // `*` stays inside one name

  const topDirectories = compileGlob("*\/");
  strictEqual(topDirectories.matches("sub", true), true);
  strictEqual(topDirectories.matches("t.nc", false), false);

  throws(() => compileGlob("a**b"), /"\*\*" can only be a whole path segment/);
});

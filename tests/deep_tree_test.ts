import { equal, ok } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { drawTree, type TreeNode } from "../src/cli/tree.ts";
import { treeJson } from "../src/cli/tree_json.ts";
import { filesBelow, recordingLogger, runCli } from "./support.ts";

/** One listing entry 10,000 directories deep, beside ordinary files. */
const DEEP = `${"d/".repeat(10_000)}deep.txt`;
const FILES = { "a.txt": "hello", "data/b.txt": "world", [DEEP]: "x" };
/** The files' paths, sorted. */
const PATHS = ["a.txt", "data/b.txt", DEEP].sort();
/** Longer than any system takes: left out of the tree. */
const TOO_LONG = `${"e/".repeat(20_000)}x.txt`;

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line !== "");
}

Deno.test("every command works beside a listing entry 10,000 directories deep", async () => {
  await using emu = await startEmulator({ files: FILES });
  const out = await Deno.makeTempDir();
  try {
    const cli = (...args: string[]) =>
      runCli(["--host", emu.host, "--pid", emu.pid, ...args]);
    const [ls, tree, find, glob, globData, info, infoDeep, cat, get, missing] =
      await Promise.all([
        cli("ls"),
        cli("tree"),
        cli("find"),
        cli("glob", "**/*.txt"),
        cli("glob", "data/*"),
        cli("info", "a.txt"),
        cli("--json", "info", DEEP),
        cli("cat", "a.txt"),
        cli("--json", "get", "**", "--out", out),
        cli("info", `${DEEP}.missing`),
      ]);
    for (const run of [ls, tree, find, glob, globData, info, infoDeep, cat]) {
      equal(run.code, 0, run.stderr);
      equal(run.stderr, "");
    }
    equal(ls.stdout, "   5 B  a.txt\n     -  d/\n     -  data/\n");
    const drawn = lines(tree.stdout);
    equal(drawn[1], "├── a.txt  (5 B)");
    ok(drawn.includes("└── data/") && drawn.includes("    └── b.txt  (5 B)"));
    ok(
      drawn.some((line) => line.endsWith("[level 10001] └── deep.txt  (1 B)")),
    );
    ok(Math.max(...drawn.map((line) => line.length)) < 300);
    equal(drawn.at(-1), "10001 directories, 3 files, 11 B");
    equal(find.stdout, `${PATHS.join("\n")}\n`);
    equal(glob.stdout, find.stdout);
    equal(globData.stdout, "data/b.txt\n");
    ok(
      info.stdout.startsWith(
        "name:         a.txt\ntype:         file\nsize:         5\n",
      ),
    );
    equal(JSON.parse(infoDeep.stdout).size, 1);
    equal(cat.stdout, "hello");

    equal(missing.code, 1);
    equal(lines(missing.stderr).length, 1);
    ok(missing.stderr.length < 300, missing.stderr);
    ok(missing.stderr.includes("deep.txt.missing"), missing.stderr);

    // The deep file alone fails, in one short line; the rest is downloaded.
    equal(get.code, 1);
    const failures = lines(get.stderr);
    equal(failures.length, 1, get.stderr);
    ok(failures[0].length < 300, failures[0]);
    ok(
      failures[0].startsWith('repo-fs: refused "d/d/d/') &&
        failures[0].includes("…") &&
        failures[0].includes('/d/deep.txt": its local path would be '),
      failures[0],
    );
    const summary = JSON.parse(get.stdout);
    equal(summary.downloaded, 2);
    equal(summary.failed, 1);
    equal(summary.failures[0].path, DEEP);
    equal(summary.unmatched.length, 0);
    equal((await filesBelow(out)).join(" "), "a.txt data/b.txt");
    equal(await Deno.readTextFile(`${out}/data/b.txt`), "world");
  } finally {
    await Deno.remove(out, { recursive: true });
  }
});

Deno.test("the library's ls, find, glob, info and catFile work beside a deep entry; an entry longer than any system takes is left out in one short warning", async () => {
  await using emu = await startEmulator({
    files: { ...FILES, [TOO_LONG]: "y" },
  });
  const logger = recordingLogger();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, logger });
  equal(
    (await fs.ls("")).map((entry) => entry.name).join(" "),
    "a.txt d data",
  );
  const deepDir = DEEP.slice(0, DEEP.lastIndexOf("/"));
  equal((await fs.ls(deepDir))[0].name, DEEP);
  equal((await fs.find("")).join("\n"), PATHS.join("\n"));
  equal((await fs.find("", { withdirs: true })).length, 10_001 + 3);
  equal((await fs.glob("**/*.txt")).join("\n"), PATHS.join("\n"));
  equal((await fs.glob("d/*/d/**/deep.txt"))[0], DEEP);
  equal((await fs.info(DEEP)).size, 1);
  equal(new TextDecoder().decode(await fs.catFile(DEEP)), "x");

  const [rejected] = await fs.rejectedEntries();
  equal(rejected.path, TOO_LONG);
  ok(rejected.reason.includes("longer than any system takes (32767)"));
  equal(await fs.exists("e"), false);
  const warnings = logger.lines.filter((line) => line.level === "warn");
  equal(warnings.length, 1);
  ok(warnings[0].msg.length < 300, warnings[0].msg);
});

Deno.test("a tree 10,000 levels deep is drawn and written as JSON in lines of bounded length", () => {
  let root: TreeNode = { name: "x.txt", type: "file", size: 1 };
  for (let level = 0; level < 10_000; level++) {
    root = {
      name: "d",
      type: "directory",
      size: 0,
      children: [root, { name: "f", type: "file", size: 2 }],
    };
  }
  const drawn = drawTree(root);
  equal(drawn.length, 1 + 20_000 + 2);
  ok(Math.max(...drawn.map((line) => line.length)) < 200);
  equal(drawn.at(-1), "9999 directories, 10001 files, 19.5 KiB");

  const text = treeJson(root);
  ok(Math.max(...text.split("\n").map((line) => line.length)) < 100);
  let node = JSON.parse(text) as TreeNode;
  let depth = 0;
  while (node.children !== undefined) {
    equal(node.children[1].size, 2);
    node = node.children[0];
    depth++;
  }
  equal(depth, 10_000);
  equal(node.name, "x.txt");

  const shallow: TreeNode = {
    name: "",
    type: "directory",
    size: 0,
    children: [
      { name: "a", type: "directory", size: 0, children: [] },
      {
        name: "b.csv",
        type: "file",
        size: 4,
        checksum: { type: "MD5", value: "00" },
      },
      { name: "c", type: "directory", size: 0 },
    ],
  };
  // As JSON.stringify would write it, directories without a size (as in text).
  const { size: _rootSize, ...shallowRoot } = shallow;
  const children = shallow.children!.map((child) => {
    if (child.type !== "directory") return child;
    const { size: _size, ...directory } = child;
    return directory;
  });
  equal(
    treeJson(shallow),
    JSON.stringify({ ...shallowRoot, children }, null, 2),
  );
});

// deno-lint-ignore-file require-await -- stand-ins keep the async shape of what they replace
import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { parseCommandLine } from "../src/cli/args.ts";
import { datasets, find, glob, info, ls, tree } from "../src/cli/browse.ts";
import { Context } from "../src/cli/context.ts";
import { Output } from "../src/cli/io.ts";
import { RepoFs } from "../mod.ts";
import { drawTree, readTree } from "../src/cli/tree.ts";
import {
  accessNote,
  formatDuration,
  formatSize,
  infoLines,
  lsLines,
} from "../src/cli/format.ts";
import { splitArchivePath } from "../src/cli/archive_path.ts";
import { placeMembers } from "../src/cli/member_download.ts";

/** What `command` printed (or wrote as JSON) on the emulator's dataset of two files; it must exit 0. */
async function printedBy(
  command: (context: Context) => Promise<number>,
  args: string[],
): Promise<unknown[]> {
  await using emu = await startEmulator({
    files: { "README.md": "# An example", "data/a.csv": "x,y\n" },
  });
  const out = new Output();
  const printed: unknown[] = [];
  out.print = async (text) => {
    printed.push(text);
  };
  out.json = async (value) => {
    printed.push(value);
  };
  const line = parseCommandLine([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    ...args,
  ]);
  strictEqual(await command(new Context(line, out)), 0);
  return printed;
}

Deno.test("ls lists direct children", async () => {
  const printed = await printedBy(ls, ["ls"]);
  deepStrictEqual(String(printed[0]).split("\n"), [
    "  12 B  README.md",
    "     -  data/",
  ]);
});

Deno.test("tree draws or nests JSON", async () => {
  const printed = await printedBy(tree, ["tree"]);
  deepStrictEqual(String(printed[0]).split("\n"), [
    ".",
    "├── README.md  (12 B)",
    "└── data/",
    "    └── a.csv  (4 B)",
    "",
    "1 directory, 2 files, 16 B",
  ]);
});

Deno.test("find lists paths below", async () => {
  const printed = await printedBy(find, ["find", "--withdirs"]);
  deepStrictEqual(String(printed[0]).split("\n"), [
    "README.md",
    "data/",
    "data/a.csv",
  ]);
});

Deno.test("glob lists matches", async () => {
  const printed = await printedBy(glob, ["--json", "glob", "data/*.csv"]);
  deepStrictEqual(printed, [["data/a.csv"]]);
});

Deno.test("info shows a listing entry", async () => {
  const printed = await printedBy(info, ["info", "data/a.csv"]);
  deepStrictEqual(String(printed[0]).split("\n"), [
    "name:         data/a.csv",
    "type:         file",
    "size:         4",
    "id:           1002",
    "content type: application/octet-stream",
    "checksum:     MD5 043212bb9834e334677e9c9659294bd4",
  ]);
});

Deno.test("datasets lists a collection's items", async () => {
  await using emu = await startEmulator();
  const out = new Output();
  const printed: string[] = [];
  out.print = async (text) => {
    printed.push(text);
  }; // instead of stdout
  const line = parseCommandLine(["--host", emu.host, "datasets", emu.alias]);
  strictEqual(await datasets(new Context(line, out)), 0);
  deepStrictEqual(printed, [
    "doi:10.5072/FK2/EMULATED  dataset  https://doi.org/10.5072/FK2/EMULATED",
  ]);
});

Deno.test("readTree stops at maxdepth", async () => {
  await using emu = await startEmulator({
    files: { "climate.zarr/.zgroup": "{}", "climate.zarr/t/.zarray": "{}" },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const root = await readTree(fs, "climate.zarr", 1);
  deepStrictEqual(root.children?.map((child) => child.name), [
    "climate.zarr/.zgroup",
    "climate.zarr/t",
  ]);
  strictEqual(root.children?.[1].children, undefined); // below maxdepth
  const deeper = await readTree(fs, "climate.zarr", 2);
  strictEqual(
    deeper.children?.[1].children?.[0].name,
    "climate.zarr/t/.zarray",
  );
});

Deno.test("drawTree draws as tree(1)", () => {
  const lines = drawTree({
    name: "",
    type: "directory",
    size: 0,
    children: [
      {
        name: "data",
        type: "directory",
        size: 0,
        children: [{ name: "data/a.csv", type: "file", size: 10 }],
      },
      { name: "README.md", type: "file", size: 18 },
    ],
  });
  deepStrictEqual(lines, [
    ".",
    "├── data/",
    "│   └── a.csv  (10 B)",
    "└── README.md  (18 B)",
    "",
    "1 directory, 2 files, 28 B",
  ]);
});

Deno.test("formatSize", () => {
  strictEqual(formatSize(512), "512 B");
  strictEqual(formatSize(1536), "1.5 KiB");
  strictEqual(formatSize(12 * 1024 * 1024), "12.0 MiB");
  strictEqual(formatSize(null), "?");
});

Deno.test("formatDuration", () => {
  strictEqual(formatDuration(65), "1:05");
  strictEqual(formatDuration(3725), "1:02:05");
});

Deno.test("accessNote: restricted or embargoed", () => {
  equal(
    accessNote({ name: "a", type: "file", size: 1, restricted: true }),
    "restricted",
  );
  equal(
    accessNote({
      name: "a",
      type: "file",
      size: 1,
      restricted: true,
      embargoedUntil: "2999-01-01",
    }),
    "embargoed until 2999-01-01",
  );
  equal(accessNote({ name: "a", type: "file", size: 1 }), undefined);
});

Deno.test("ls lines", () => {
  deepStrictEqual(
    lsLines([
      { name: "data", type: "directory", size: 0 },
      { name: "README.md", type: "file", size: 18 },
      { name: "secret.csv", type: "file", size: 7, restricted: true },
    ]),
    ["     -  data/", "  18 B  README.md", "   7 B  secret.csv  (restricted)"],
  );
});

Deno.test("info lines", () => {
  deepStrictEqual(
    infoLines({ name: "a.txt", type: "file", size: 2048, id: 7 }),
    [
      "name:         a.txt",
      "type:         file",
      "size:         2048 (2.0 KiB)",
      "id:           7",
    ],
  );
  deepStrictEqual(
    infoLines({
      name: "b",
      type: "file",
      size: 3,
      checksum: { type: "SHA-1", value: "a999" },
      restricted: true,
    }).slice(3),
    ["checksum:     SHA-1 a999", "access:       restricted"],
  );
});

Deno.test("archive paths split at each !/", () => {
  deepStrictEqual(splitArchivePath("data/x.csv"), {
    archives: [],
    inner: "data/x.csv",
  });
  deepStrictEqual(splitArchivePath("data.zip!/docs/a.txt"), {
    archives: ["data.zip"],
    inner: "docs/a.txt",
  });
  deepStrictEqual(splitArchivePath("a.zip!/b/c.zip!/"), {
    archives: ["a.zip", "b/c.zip"],
    inner: "",
  });
  deepStrictEqual(splitArchivePath("a.zip!"), {
    archives: ["a.zip"],
    inner: "",
  });
  equal(splitArchivePath("wow!.txt").archives.length, 0);
});

Deno.test("members are named by their path, a second set apart", () => {
  const file = (name: string) => ({ name, type: "file" as const, size: 1 });
  const placed = placeMembers([
    file("a.zip!/docs/x.txt"),
    file("b.zip!/c.zip!/y.txt"),
    file("docs/x.txt"),
    file("plain.txt"),
  ]);
  deepStrictEqual(placed.files.map((f) => f.name), [
    "docs/x.txt",
    "y.txt",
    "plain.txt",
  ]);
  deepStrictEqual(placed.clashes.map((f) => f.name), ["docs/x.txt"]);
  deepStrictEqual([...placed.members], [
    ["docs/x.txt", "a.zip!/docs/x.txt"],
    ["y.txt", "b.zip!/c.zip!/y.txt"],
  ]);
});

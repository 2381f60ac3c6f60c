// Behaviour of src/cli/tree.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoFs } from "../../../mod.ts";
import { drawTree, readTree } from "../../../src/cli/tree.ts";

Deno.test("readTree: Reads the tree below `path` (a file gives a single node), at most `maxdepth` levels deep", async () => {
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

Deno.test("drawTree: Draws a tree as `tree(1)` does, with file sizes, and a closing count", () => {
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

import { deepStrictEqual } from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Who may import whom, by folder of `src/` (the map in the README's "How it
 * is built"). A folder may always import itself; `repo_fs` stands for
 * `src/repo_fs.ts` and `src/serialize.ts`.
 */
const MAY_IMPORT: Record<string, string[]> = {
  base: [],
  tree: ["base"],
  repo: ["base"],
  content: ["base", "repo"],
  repo_fs: ["base", "tree", "repo", "content"],
  zarr: ["base", "tree"],
  pool: ["base", "repo", "repo_fs", "zarr"],
  emulator: ["base", "repo"],
  cli: ["base", "tree", "repo", "repo_fs", "pool", "emulator"],
};

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

function layerOf(path: string): string {
  const [first] = path.split("/");
  return first === "repo_fs.ts" || first === "serialize.ts" ? "repo_fs" : first;
}

/** Relative module specifiers of a file's import and export statements (not of its doc examples). */
function importsOf(text: string): string[] {
  const code = text.split("\n").filter((line) => !/^\s*\*/.test(line));
  const found = code.join("\n").matchAll(
    /(?:^|\n)\s*(?:import|export)\b[^;]*?from\s+"(\.[^"]+)"|import\("(\.[^"]+)"\)|new URL\("(\.[^"]+)"/g,
  );
  return [...found].map((m) => m[1] ?? m[2] ?? m[3]);
}

async function* sources(dir: string, prefix = ""): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${prefix}${entry.name}`;
    if (entry.isDirectory) yield* sources(`${dir}${entry.name}/`, `${path}/`);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

Deno.test("src/ folders import only the folders below them", async () => {
  const outside: string[] = [];
  for await (const path of sources(SRC)) {
    const layer = layerOf(path);
    const allowed = new Set([layer, ...MAY_IMPORT[layer]]);
    const text = await Deno.readTextFile(`${SRC}${path}`);
    for (const specifier of importsOf(text)) {
      const target = new URL(specifier, `file:///src/${path}`).pathname;
      const into = target.startsWith("/src/")
        ? layerOf(target.slice("/src/".length))
        : `entry file ${target}`;
      if (!allowed.has(into)) outside.push(`${path} imports ${specifier}`);
    }
  }
  deepStrictEqual(outside, []);
});

Deno.test("every folder of src/ has its place in the map", async () => {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(SRC)) {
    if (entry.isDirectory) folders.push(entry.name);
  }
  deepStrictEqual(
    folders.sort(),
    Object.keys(MAY_IMPORT).filter((layer) => layer !== "repo_fs").sort(),
  );
});

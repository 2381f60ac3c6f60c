import { deepStrictEqual, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";

/**
 * Who may import whom, by folder of `src/` (the map in the README's "How it
 * is built"). A folder may always import itself; `repo_fs` stands for
 * `src/repo_fs.ts`, `src/repo_file.ts` and `src/serialize.ts`.
 */
const MAY_IMPORT: Record<string, string[]> = {
  base: [],
  tree: ["base"],
  api: ["base"],
  urls: ["base", "api"],
  content: ["base", "api", "urls"],
  repo_fs: ["base", "tree", "api", "urls", "content", "download"],
  zarr: ["base", "tree", "formats"],
  download: ["base", "repo_fs"],
  pool: [
    "base",
    "tree",
    "api",
    "urls",
    "content",
    "repo_fs",
    "zarr",
    "download",
    "fleet",
    "formats",
  ],
  fleet: ["base", "api", "urls"],
  formats: ["base", "tree", "api", "content"],
  emulator: ["base", "api"],
  cli: [
    "formats",
    "base",
    "tree",
    "api",
    "urls",
    "repo_fs",
    "pool",
    "download",
    "fleet",
    "emulator",
    "zarr",
    "entry file /explorer/build.ts",
  ],
};

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

function layerOf(path: string): string {
  const [first] = path.split("/");
  return ["repo_fs.ts", "repo_file.ts", "serialize.ts"].includes(first)
    ? "repo_fs"
    : first;
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

/** `deno info --json` of `entry`: every module of its graph, dynamic and type-only imports included. */
async function moduleInfo(entry: string): Promise<
  {
    specifier: string;
    dependencies?: {
      specifier: string;
      code?: { specifier: string };
      type?: { specifier: string };
    }[];
  }[]
> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!success) throw new Error(`deno info ${entry} failed`);
  return JSON.parse(new TextDecoder().decode(stdout)).modules;
}

/** The module graph of `entry`: project file -> the project files it imports, type-only imports included. */
async function moduleGraph(entry: string): Promise<Map<string, string[]>> {
  const graph = new Map<string, string[]>();
  for (const module of await moduleInfo(entry)) {
    if (!module.specifier.startsWith("file:")) continue;
    graph.set(
      module.specifier,
      (module.dependencies ?? []).flatMap((dependency) =>
        [dependency.code?.specifier, dependency.type?.specifier].filter((
          specifier,
        ): specifier is string => specifier?.startsWith("file:") ?? false)
      ),
    );
  }
  return graph;
}

/** Every import cycle's modules, as one path each (iterative, so a deep graph costs no stack). */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  for (const root of graph.keys()) {
    if (state.has(root)) continue;
    const stack: { node: string; next: number }[] = [{ node: root, next: 0 }];
    state.set(root, "open");
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const targets = graph.get(top.node) ?? [];
      if (top.next === targets.length) {
        state.set(top.node, "done");
        stack.pop();
        continue;
      }
      const target = targets[top.next++];
      if (state.get(target) === "open") {
        const from = stack.findIndex((frame) => frame.node === target);
        found.push(
          [...stack.slice(from).map((frame) => frame.node), target]
            .map((specifier) =>
              specifier.replace(/^.*?\/(src|workers)\//, "$1/")
            )
            .join(" -> "),
        );
      } else if (!state.has(target)) {
        state.set(target, "open");
        stack.push({ node: target, next: 0 });
      }
    }
  }
  return found;
}

Deno.test("no import cycles from any entry point, type-only imports included", async () => {
  const entries = [
    "mod.ts",
    "zarr.ts",
    "emulator.ts",
    "cli.ts",
    "fleet.ts",
    "workers/range_worker.ts",
  ];
  const found = new Set<string>();
  for (const entry of entries) {
    for (const cycle of cycles(await moduleGraph(entry))) found.add(cycle);
  }
  deepStrictEqual([...found], []);
});

Deno.test("no entry's module graph holds the Redis client: the fleet loads it by name when a coordinator first connects", async () => {
  const holding: string[] = [];
  for (
    const entry of [
      "mod.ts",
      "zarr.ts",
      "workers/range_worker.ts",
      "fleet.ts",
      "cli.ts",
    ]
  ) {
    const modules = await moduleInfo(entry);
    ok(modules.some((module) => module.specifier.endsWith(`/${entry}`)));
    for (const module of modules) {
      const names = [
        module.specifier,
        ...(module.dependencies ?? []).map((dependency) =>
          dependency.specifier
        ),
      ];
      if (names.some((name) => name.includes("@redis/client"))) {
        holding.push(`${entry}: ${module.specifier}`);
      }
    }
  }
  deepStrictEqual(holding, []);
});

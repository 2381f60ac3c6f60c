// Every exported symbol of every entry shows an example a user can run: it
// imports the package by its own name and asserts what it shows. Internal
// symbols carry none (their behaviour is tested in the topic files of tests/).
import { deepStrictEqual, ok } from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
const ENTRIES: string[] = Object.values(config.exports);
const SUBPATHS = Object.keys(config.exports).map((key) => key.slice(1));
const BARE: string[] = Object.keys(config.imports);
const ASSERTIONS = new Set([
  "assert",
  "ok",
  "equal",
  "strictEqual",
  "deepEqual",
  "deepStrictEqual",
  "notEqual",
  "notStrictEqual",
  "notDeepStrictEqual",
  "throws",
  "rejects",
  "doesNotThrow",
  "doesNotReject",
  "match",
  "doesNotMatch",
]);

interface JsDoc {
  doc?: string;
  tags?: { kind: string; doc?: string }[];
}
/** A doc comment: on a symbol (which needs an example), a member, a module. */
interface Documented {
  where: string;
  location: string;
  jsDoc?: JsDoc;
  kind: "symbol" | "member" | "module";
}
interface DocNode {
  module_doc?: JsDoc;
  symbols: DocSymbol[];
}

/** The `deno doc --json` nodes of some files, keyed by file URL. */
async function docNodes(
  files: string[],
  flags: string[] = [],
): Promise<Record<string, DocNode>> {
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", ...flags, ...files],
    cwd: ROOT,
  }).output();
  ok(success, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout)).nodes;
}

interface Member {
  name?: string;
  jsDoc?: JsDoc;
  location?: { filename: string; line: number };
  accessibility?: string;
  isPrivate?: boolean;
}
interface DocSymbol {
  name: string;
  declarations: {
    jsDoc?: JsDoc;
    kind: string;
    location: { filename: string; line: number };
    def?: Record<string, Member[] | unknown>;
  }[];
}

function at(location: { filename: string; line: number }): string {
  return `${relative(ROOT, fileURLToPath(location.filename))}:${location.line}`;
}

/** A module's doc, its symbols, and the public members of their declarations. */
function* documented(file: string, node: DocNode): Generator<Documented> {
  yield {
    where: "module doc",
    location: at({ filename: file, line: 1 }),
    jsDoc: node.module_doc,
    kind: "module",
  };
  for (const symbol of node.symbols) {
    for (const declaration of symbol.declarations) {
      yield {
        where: symbol.name,
        location: at(declaration.location),
        jsDoc: declaration.jsDoc,
        kind: "symbol",
      };
      for (const list of Object.values(declaration.def ?? {})) {
        if (!Array.isArray(list)) continue;
        for (const member of list as Member[]) {
          if (!member?.location || member.accessibility === "private") continue;
          if (member.isPrivate || member.name?.startsWith("#")) continue;
          yield {
            where: `${symbol.name}.${member.name ?? "()"}`,
            location: at(member.location),
            jsDoc: member.jsDoc,
            kind: "member",
          };
        }
      }
    }
  }
}

function examples(jsDoc: JsDoc | undefined): string[] {
  return (jsDoc?.tags ?? []).filter((tag) => tag.kind === "example")
    .map((tag) => tag.doc ?? "");
}

/** The TypeScript of an example's fenced blocks. */
function exampleCode(example: string): string {
  return [
    ...example.matchAll(/```(?:ts|js|typescript|javascript)?\n([\s\S]*?)```/g),
  ]
    .map((match) => match[1]).join("\n");
}

/** Why an example's code is not runnable as a user would run it, if it is not. */
function problems(source: string): string[] {
  const found: string[] = [];
  if (!source.trim()) return ["no ```ts block"];
  const specifiers = [
    ...source.matchAll(/\bfrom\s+["']([^"']+)["']/g),
    ...source.matchAll(/\bimport\s*\(?\s*["']([^"']+)["']/g),
  ].map((match) => match[1]);
  for (const specifier of specifiers) {
    const self = specifier === "@x/repo-fs" ||
      (specifier.startsWith("@x/repo-fs/") &&
        SUBPATHS.includes(specifier.slice("@x/repo-fs".length)));
    if (!self && !specifier.startsWith("node:") && !BARE.includes(specifier)) {
      found.push(`imports "${specifier}"`);
    }
  }
  const readsRelative =
    /\bimport\.meta\.url\b|\bDeno\.(readFile|readTextFile|open)(Sync)?\(\s*["'`](?!\/)/;
  if (readsRelative.test(source)) {
    found.push("reads a file of this repository by a relative path");
  }
  const asserts = new Set<string>();
  const fromAssert =
    /\bimport\s+([^;]*?)\s+from\s+["']node:assert(?:\/strict)?["']/g;
  for (const [, clause] of source.matchAll(fromAssert)) {
    const [, whole] = clause.match(/^(?:\*\s+as\s+)?(\w+)/) ?? [];
    if (whole) asserts.add(whole);
    const [, named] = clause.match(/\{([^}]*)\}/) ?? [];
    for (const part of named?.split(",") ?? []) {
      const [name, alias] = part.trim().split(/\s+as\s+/);
      if (name && ASSERTIONS.has(name)) asserts.add(alias ?? name);
    }
  }
  const body = source.replace(fromAssert, "");
  const calls = [...asserts].some((name) =>
    new RegExp(`\\b${name}(\\.\\w+)?\\s*\\(`).test(body)
  );
  if (!calls) found.push("asserts nothing (no node:assert call)");
  return found;
}

/** Every public doc comment, once, over all entries. */
async function publicDocs(): Promise<Map<string, Documented>> {
  const all = new Map<string, Documented>();
  for (const entry of ENTRIES) {
    const nodes = await docNodes([entry]);
    for (const [file, node] of Object.entries(nodes)) {
      for (const item of documented(file, node)) {
        all.set(`${item.location} ${item.where}`, {
          ...item,
          where: `${entry}: ${item.where}`,
        });
      }
    }
  }
  return all;
}

const publicItems = await publicDocs();

Deno.test("every exported symbol of every entry has an @example", () => {
  const missing = [...publicItems.values()]
    .filter((item) => item.kind === "symbol" && !examples(item.jsDoc).length)
    .map((item) => `${item.where} (${item.location})`);
  deepStrictEqual(missing, []);
});

Deno.test("every public example imports the package by name and asserts", () => {
  const bad: string[] = [];
  for (const item of publicItems.values()) {
    for (const example of examples(item.jsDoc)) {
      for (const problem of problems(exampleCode(example))) {
        bad.push(`${item.where} (${item.location}): ${problem}`);
      }
    }
  }
  deepStrictEqual(bad, []);
});

Deno.test("deno doc --lint finds nothing to say of any entry", async () => {
  const { success, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...ENTRIES],
    cwd: ROOT,
  }).output();
  ok(success, new TextDecoder().decode(stderr));
});

Deno.test("no internal symbol carries an @example", async () => {
  const files: string[] = [];
  for (const dir of ["src", "workers"]) {
    for await (const file of walkTs(join(ROOT, dir))) {
      if ((await Deno.readTextFile(file)).includes("@example")) {
        files.push(relative(ROOT, file));
      }
    }
  }
  const seen = new Set(
    [...publicItems.values()].map((item) => item.location),
  );
  const internal: string[] = [];
  if (files.length > 0) {
    const nodes = await docNodes(files, ["--private"]);
    for (const [file, node] of Object.entries(nodes)) {
      for (const item of documented(file, node)) {
        if (examples(item.jsDoc).length && !seen.has(item.location)) {
          internal.push(`${item.where} (${item.location})`);
        }
      }
    }
  }
  deepStrictEqual([...new Set(internal)], []);
});

Deno.test("the example checker tells a runnable example from one that is not", () => {
  deepStrictEqual(
    problems(
      'import { RepoFs } from "@x/repo-fs";\nimport { ok } from "node:assert/strict";\nok(RepoFs);\n',
    ),
    [],
  );
  deepStrictEqual(
    problems(
      'import { RepoFs } from "./src/repo_fs.ts";\nconst fs: RepoFs | undefined = undefined;\n',
    ),
    ['imports "./src/repo_fs.ts"', "asserts nothing (no node:assert call)"],
  );
  deepStrictEqual(
    problems(
      'import { ok } from "node:assert/strict";\nok(await Deno.readFile("fixtures/a.nc"));\n',
    ),
    ["reads a file of this repository by a relative path"],
  );
  deepStrictEqual(
    problems(
      'import * as assert from "node:assert/strict";\nassert.ok(new URL("./a", import.meta.url));\n',
    ),
    ["reads a file of this repository by a relative path"],
  );
  deepStrictEqual(
    problems('import { ok } from "node:assert/strict";\nconst x = 1;\n'),
    ["asserts nothing (no node:assert call)"],
  );
  deepStrictEqual(
    problems(
      'import { x } from "@x/repo-fs/nope";\nimport assert from "node:assert";\nassert(x);',
    ),
    [
      'imports "@x/repo-fs/nope"',
    ],
  );
});

async function* walkTs(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) yield* walkTs(path);
    else if (entry.name.endsWith(".ts")) yield path;
  }
}

/**
 * The walk from `getArray` to the bytes in docs/architecture.md names, for
 * each hop, a file and the functions in it: each must be defined there, so
 * that the walk breaks this test, not its readers, when the code moves.
 */

import { ok } from "node:assert/strict";

const root = new URL("../", import.meta.url);
const doc = await Deno.readTextFile(new URL("docs/architecture.md", root));

interface Hop {
  table: string;
  number: string;
  file: string;
  names: string[];
}

/** The rows of the walk's tables: `| # | \`file\` | \`name\` → \`name\` | … |`. */
function walkHops(markdown: string): Hop[] {
  const start = markdown.indexOf("## From `getArray` to the bytes");
  ok(start >= 0, "docs/architecture.md has no walk from getArray");
  const end = markdown.indexOf("\n## ", start + 1);
  const hops: Hop[] = [];
  let table = "";
  for (const line of markdown.slice(start, end).split("\n")) {
    if (line.startsWith("### ")) table = line.slice(4);
    const row = /^\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|([^|]*)\|/.exec(line);
    if (row === null) continue;
    const names = [...row[3].matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    hops.push({ table, number: row[1], file: row[2], names });
  }
  return hops;
}

/**
 * Whether `source` defines `name`: a function, class, variable, or a
 * method or object-literal method (`name(…) {` or `name(…): T {`, with
 * modifiers before), or a property holding an arrow function.
 */
function defines(source: string, name: string): boolean {
  const n = name.replace(/[$#]/g, "\\$&");
  const declared = new RegExp(
    `(?:function\\*?|class|const|let)\\s+${n}\\b|\\b${n}\\s*[:=]\\s*(?:async\\s*)?\\(`,
  );
  if (declared.test(source)) return true;
  const head = new RegExp(
    `^[ \\t]*(?:(?:static|async|protected|private|public|override|get)\\s+)*\\*?\\s*${n}\\s*(?:<[^>\\n]*>)?\\(`,
    "gm",
  );
  for (const match of source.matchAll(head)) {
    const after = afterParens(source, match.index! + match[0].length - 1);
    if (after === ":" || after === "{") return true;
  }
  return false;
}

/** The first character other than white space after the parentheses opened at `open`. */
function afterParens(source: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === "(") depth++;
    else if (source[i] === ")" && --depth === 0) {
      return source.slice(i + 1).trimStart()[0];
    }
  }
  return undefined;
}

const hops = walkHops(doc);

Deno.test("the walk from getArray has its two tables, each hop a file and functions", () => {
  const tables = new Set(hops.map((hop) => hop.table));
  ok(tables.size === 2, `tables: ${[...tables].join("; ")}`);
  ok(hops.length >= 40, `only ${hops.length} hops`);
  for (const hop of hops) {
    ok(
      hop.names.length > 0,
      `hop ${hop.number} of ${hop.table} names no function`,
    );
  }
});

Deno.test("every function the walk names is defined in the file it names", async () => {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("deno.json", root)),
  );
  const missing: string[] = [];
  for (const { table, number, file, names } of hops) {
    const where = `${table}, hop ${number}: ${file}`;
    if (file.startsWith("npm:")) {
      const name = file.slice("npm:".length);
      if (!(name in config.imports)) missing.push(`${where} is no import`);
      continue;
    }
    let source: string;
    try {
      source = await Deno.readTextFile(new URL(file, root));
    } catch {
      missing.push(`${where} does not exist`);
      continue;
    }
    for (const name of names) {
      const parts = name.split(".");
      if (
        parts.length === 2 &&
        !new RegExp(`class\\s+${parts[0]}\\b`).test(source)
      ) {
        missing.push(`${where} has no class ${parts[0]}`);
      }
      if (!defines(source, parts.at(-1)!)) {
        missing.push(`${where} has no ${name}`);
      }
    }
  }
  ok(missing.length === 0, missing.join("\n"));
});

Deno.test("the check finds a definition and refuses a call", () => {
  const source = [
    "export async function getArray(a: number) {}",
    "class C {",
    "  async #read(",
    "    a: number,",
    "  ): Promise<void> {",
    "    post(a);",
    "  }",
    "}",
    "const place = (i: number) => i;",
  ].join("\n");
  for (const name of ["getArray", "C", "#read", "place"]) {
    ok(defines(source, name), name);
  }
  for (const name of ["post", "read", "get"]) ok(!defines(source, name), name);
});

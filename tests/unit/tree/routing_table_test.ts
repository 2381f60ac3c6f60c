// Behaviour of src/tree/routing_table.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import {
  RoutingTable,
  type RoutingTableBuilder,
} from "../../../src/tree/routing_table.ts";

Deno.test("RoutingTableBuilder: What RoutingTable.builder returns: `add` each listed file, then `finish` once", () => {
  const builder: RoutingTableBuilder = RoutingTable.builder();
  builder.add({ path: "x", id: 1, size: 0 });
  strictEqual(builder.finish().fileCount, 1);
});

Deno.test("RoutingTable: The dataset as a tree", () => {
  const table = RoutingTable.build([{ path: "a/b.c/d", id: 1, size: 3 }]);
  deepStrictEqual(table.children("a"), [{
    name: "a/b.c",
    type: "directory",
    size: 0,
  }]);
});

Deno.test("RoutingTable.builder: A table built one listed file at a time, by the rules of RoutingTable.build, so that…", () => {
  const builder = RoutingTable.builder();
  builder.add({ path: "a/b", id: 1, size: 3 });
  builder.add({ path: "a/c", id: 2, size: 4 });
  equal(builder.finish().fileCount, 2);
});

Deno.test("RoutingTableBuilder.addDirectory: an empty directory is listed; one a file has made, or a file's path, stays as it is", () => {
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

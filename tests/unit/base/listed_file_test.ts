// Behaviour of src/base/listed_file.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual } from "node:assert/strict";
import { asOriginal } from "../../../src/base/listed_file.ts";

Deno.test("asOriginal: An ingested tabular file seen as its original upload: the original's path, size and media…", () => {
  const archival = {
    path: "d/t.tab",
    id: 8,
    size: 4,
    contentType: "text/tab-separated-values",
    tabular: true,
    original: { path: "d/t.csv", size: 9, contentType: "text/csv" },
  };
  deepStrictEqual(asOriginal(archival), {
    path: "d/t.csv",
    id: 8,
    size: 9,
    contentType: "text/csv",
    format: "original",
  });
});

// Behaviour of src/tree/paths.ts, moved here from the examples on its internal symbols.
import { strictEqual, throws } from "node:assert/strict";
import {
  baseName,
  keyProblem,
  listedKey,
  normalizePath,
  parentKey,
} from "../../../src/tree/paths.ts";

Deno.test("keyProblem: Why `key` is not a plain key of a file or directory below the root, or `undefined` when it is…", () => {
  strictEqual(keyProblem("climate.zarr/.zgroup"), undefined);
  strictEqual(keyProblem("a/../b"), 'it has a ".." segment');
  strictEqual(keyProblem("/etc"), "it is absolute (starts with /)");
});

Deno.test("normalizePath: Turns a caller's path into a routing-table key: drops a leading `repo://`, leading,…", () => {
  strictEqual(
    normalizePath("repo:///climate.zarr//temp/"),
    "climate.zarr/temp",
  );
  strictEqual(normalizePath("/"), "");
  throws(() => normalizePath("a/../b"), TypeError);
});

Deno.test("listedKey: Turns a path as the listing gives it into a routing-table key: as normalizePath, but a leading…", () => {
  strictEqual(listedKey("repo://README.md"), "repo:/README.md");
  strictEqual(normalizePath("repo:/README.md"), "repo:/README.md");
  strictEqual(listedKey("data//a.nc"), "data/a.nc");
});

Deno.test('parentKey: The key of the directory holding `key` (`""` for a root-level key)', () => {
  strictEqual(parentKey("a/b.c/d"), "a/b.c");
  strictEqual(parentKey("top.txt"), "");
});

Deno.test("baseName: The last segment of a key", () => {
  strictEqual(baseName("a/b.c/d"), "d");
});

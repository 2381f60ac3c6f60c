// Behaviour of src/tree/glob.ts, moved here from the examples on its internal symbols.
import { strictEqual, throws } from "node:assert/strict";
import { compileGlob } from "../../../src/tree/glob.ts";

Deno.test("CompiledGlob: A compiled glob pattern", () => {
  const glob = compileGlob("climate.zarr/t?mp/.z*");
  strictEqual(glob.prefix, "climate.zarr");
  strictEqual(glob.depth, 2);
  strictEqual(glob.matches("climate.zarr/temp/.zarray"), true);
});

Deno.test("compileGlob: Compiles a user's glob pattern once", () => {
  const glob = compileGlob("repo://d1/d2/**");
  strictEqual(glob.prefix, "d1/d2");
  strictEqual(glob.depth, undefined);
  strictEqual(glob.matches("d1/d2/x/y/t.nc"), true);
  strictEqual(glob.matches("d1/d2", true), true); // the directory the `**` starts at

  const ncFiles = compileGlob("*.nc");
  strictEqual(ncFiles.depth, 1);
  strictEqual(ncFiles.matches("t.nc"), true);
  strictEqual(ncFiles.matches("sub/t.nc"), false); // `*` stays inside one name

  const topDirectories = compileGlob("*\/");
  strictEqual(topDirectories.matches("sub", true), true);
  strictEqual(topDirectories.matches("t.nc", false), false);

  throws(() => compileGlob("a**b"), /"\*\*" can only be a whole path segment/);
});

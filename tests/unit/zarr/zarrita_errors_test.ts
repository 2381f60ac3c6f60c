// Behaviour of src/zarr/zarrita_errors.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import * as zarr from "zarrita";
import { withZarritaClass } from "../../../src/zarr/zarrita_errors.ts";

Deno.test("withZarritaClass: `error`, made an instance of zarrita's class again when it came from zarrita (its `_tag`…", () => {
  const crossed = Object.assign(new Error("index out of bounds"), {
    name: "InvalidSelectionError",
    _tag: "InvalidSelectionError",
  });
  strictEqual(
    zarr.isZarritaError(withZarritaClass(crossed), "InvalidSelectionError"),
    true,
  );
});

// Behaviour of src/serialize.ts, moved here from the examples on its internal symbols.
import { throws } from "node:assert/strict";
import { checkSerialized } from "../../src/serialize.ts";

Deno.test("checkSerialized: Checks that a value is a serialised `RepoFs` of a format this version reads; a…", () => {
  throws(
    () => checkSerialized({ format: "other" }),
    /^TypeError: Not a serialised RepoFs \(format "other"\)$/,
  );
  checkSerialized({ format: "repo-fs/1", options: {}, urls: [] });
});

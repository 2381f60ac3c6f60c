import { deepStrictEqual } from "node:assert/strict";
import { splitFields } from "../../../src/cli/delimited.ts";

Deno.test("delimited fields: quotes hold the delimiter and doubled quotes", () => {
  deepStrictEqual(splitFields('a,"b,c","d""e",', ","), ["a", "b,c", 'd"e', ""]);
  deepStrictEqual(splitFields("x\t\ty", "\t"), ["x", "", "y"]);
});

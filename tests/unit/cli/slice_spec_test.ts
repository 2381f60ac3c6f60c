import { deepStrictEqual, throws } from "node:assert/strict";
import { parseSlice } from "../../../src/cli/slice_spec.ts";

Deno.test("slices as NumPy reads them: indices, ranges, steps, negatives, ellipsis", () => {
  const { selection, kept } = parseSlice("-1,::2,...", [5, 5, 3], [
    "t",
    "y",
    "x",
  ]);
  deepStrictEqual(selection, [4, { start: 0, stop: 5, step: 2 }, {
    start: 0,
    stop: 3,
    step: 1,
  }]);
  deepStrictEqual(kept, [{ name: "y", indices: [0, 2, 4] }, {
    name: "x",
    indices: [0, 1, 2],
  }]);
  deepStrictEqual(parseSlice("-3:", [5], ["t"]).kept[0].indices, [2, 3, 4]);
  deepStrictEqual(parseSlice(undefined, [], []).selection, []);
  throws(() => parseSlice("1:1", [5], ["t"]), /selects nothing/);
  throws(() => parseSlice("...,...", [5], ["t"]), /only one "\.\.\."/);
  throws(() => parseSlice("-6", [5], ["t"]), /index -6 is out of range/);
});

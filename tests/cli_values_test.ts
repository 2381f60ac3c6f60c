import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { parseSlice } from "../src/cli/slice_spec.ts";
import {
  alignedLines,
  cellText,
  csvLines,
  jsonCell,
} from "../src/cli/value_table.ts";
import { splitFields } from "../src/cli/delimited.ts";

Deno.test("slices as NumPy reads them", () => {
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

Deno.test("cells: float32, big integers, bytes and dates", () => {
  const tenth = new Float32Array([0.1])[0];
  strictEqual(cellText(tenth), "0.10000000149011612");
  strictEqual(cellText(tenth, true), "0.1");
  strictEqual(jsonCell(tenth, true), 0.1);
  strictEqual(cellText(2n ** 70n), "1180591620717411303424");
  strictEqual(jsonCell(2n ** 70n), "1180591620717411303424");
  strictEqual(jsonCell(12n), 12);
  strictEqual(cellText(Uint8Array.of(0xff, 0x01)), "ff01");
  strictEqual(
    cellText(new Date(Date.UTC(2020, 0, 2))),
    "2020-01-02T00:00:00.000Z",
  );
  strictEqual(cellText(null), "");
  strictEqual(jsonCell(NaN), "NaN");
});

Deno.test("CSV quotes; tables align numbers right", () => {
  const table = {
    columns: ["name", "t"],
    rows: [['a, "b"', 1.5], [" c", -20]],
  };
  deepStrictEqual(csvLines(table), ["name,t", '"a, ""b""",1.5', '" c",-20']);
  deepStrictEqual(alignedLines(table), [
    "name      t",
    'a, "b"  1.5',
    " c      -20",
  ]);
});

Deno.test("delimited fields: quotes and doubled quotes", () => {
  deepStrictEqual(splitFields('a,"b,c","d""e",', ","), ["a", "b,c", 'd"e', ""]);
  deepStrictEqual(splitFields("x\t\ty", "\t"), ["x", "", "y"]);
});

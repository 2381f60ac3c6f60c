import { deepStrictEqual, strictEqual } from "node:assert/strict";
import {
  alignedLines,
  cellText,
  csvLines,
  jsonCell,
} from "../../../src/cli/value_table.ts";

Deno.test("cells: float32 by its shortest decimal (as NumPy prints it), big integers, bytes and dates", () => {
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

Deno.test("CSV quotes what needs it; an aligned table puts numbers right", () => {
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

// Behaviour of src/content/byte_range.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  needsSize,
  parseContentRange,
  planRange,
  rangeHeader,
} from "../../../src/content/byte_range.ts";

Deno.test("needsSize: Checks `start`/`end` are integers (or absent) and says whether planning needs the file's size:…", () => {
  strictEqual(needsSize(-10, undefined), false); // a suffix range
  strictEqual(needsSize(-10, -5), true);
  throws(() => needsSize(1.5), /start must be an integer/);
});

Deno.test("planRange: Turns fsspec's `start`/`end` (end exclusive, negatives counted from the end of the file) into a…", () => {
  deepStrictEqual(planRange(0, 100), { kind: "bounded", start: 0, end: 100 });
  deepStrictEqual(planRange(-8), { kind: "suffix", length: 8 });
  deepStrictEqual(planRange(-8, -4, 20), {
    kind: "bounded",
    start: 12,
    end: 16,
  });
  deepStrictEqual(planRange(5, 5), { kind: "empty" });
});

Deno.test("rangeHeader: The `Range` header value of a plan; `undefined` for a whole-file read", () => {
  strictEqual(
    rangeHeader({ kind: "bounded", start: 0, end: 100 }),
    "bytes=0-99",
  );
  strictEqual(rangeHeader({ kind: "suffix", length: 8 }), "bytes=-8");
  strictEqual(rangeHeader({ kind: "from", start: 0 }), undefined);
});

Deno.test("parseContentRange: Parses a `Content-Range` header; a malformed one is a RepoProtocolError", () => {
  deepStrictEqual(parseContentRange("bytes 0-99/1000", "u"), {
    first: 0,
    last: 99,
    total: 1000,
  });
  throws(() => parseContentRange("bytes 0-99", "u"), /malformed Content-Range/);
});

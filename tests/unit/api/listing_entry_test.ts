// Behaviour of src/api/listing_entry.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal, throws } from "node:assert/strict";
import {
  embargoActive,
  field,
  listedFiles,
} from "../../../src/api/listing_entry.ts";

Deno.test("listedFiles: The listed files of a version's `files` array, checked one by one as they are taken", () => {
  const entries = [
    { directoryLabel: "d", dataFile: { id: 7, filename: "a.nc", filesize: 3 } },
    {
      restricted: true,
      dataFile: {
        id: 8,
        filename: "b.nc",
        filesize: 5,
        checksum: {
          type: "SHA-1",
          value: "a9993e364706816aba3e25717850c26c9cd0d89d",
        },
        embargo: { dateAvailable: "2999-01-01" },
      },
    },
  ];
  deepStrictEqual([...listedFiles(entries, "https://r.example/api")], [
    { path: "d/a.nc", id: 7, size: 3 },
    {
      path: "b.nc",
      id: 8,
      size: 5,
      checksum: {
        type: "SHA-1",
        value: "a9993e364706816aba3e25717850c26c9cd0d89d",
      },
      restricted: true,
      embargoedUntil: "2999-01-01",
    },
  ]);
});

Deno.test("field: The value of `name` in an answer object; a missing one is a RepoProtocolError", () => {
  deepStrictEqual(field({ data: [] }, "data", "https://r.example/api"), []);
  throws(() => field({}, "data", "https://r.example/api"), /has no "data"/);
});

Deno.test("embargoActive: Whether an embargo that ends on `dateAvailable` (`YYYY-MM-DD`, the first day the file is…", () => {
  const now = new Date("2030-06-01T12:00:00Z");
  equal(embargoActive("2031-01-01", now), true);
  equal(embargoActive("2030-06-01", now), false);
});

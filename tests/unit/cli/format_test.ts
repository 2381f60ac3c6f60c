// Behaviour of src/cli/format.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import {
  accessNote,
  formatDuration,
  formatSize,
  infoLines,
  lsLines,
} from "../../../src/cli/format.ts";

Deno.test("formatSize: A byte count for people: `512 B`, `1.5 KiB`, `12.0 MiB`; `?` when unknown", () => {
  strictEqual(formatSize(512), "512 B");
  strictEqual(formatSize(1536), "1.5 KiB");
  strictEqual(formatSize(12 * 1024 * 1024), "12.0 MiB");
  strictEqual(formatSize(null), "?");
});

Deno.test("formatDuration: Seconds as `m:ss` (or `h:mm:ss` from an hour on)", () => {
  strictEqual(formatDuration(65), "1:05");
  strictEqual(formatDuration(3725), "1:02:05");
});

Deno.test("accessNote: Why a file may not be readable: `restricted`, or `embargoed until <date>`; `undefined` for a…", () => {
  equal(
    accessNote({ name: "a", type: "file", size: 1, restricted: true }),
    "restricted",
  );
  equal(
    accessNote({
      name: "a",
      type: "file",
      size: 1,
      restricted: true,
      embargoedUntil: "2999-01-01",
    }),
    "embargoed until 2999-01-01",
  );
  equal(accessNote({ name: "a", type: "file", size: 1 }), undefined);
});

Deno.test("lsLines: `ls` output: one line per entry, the size right-aligned (`-` for a directory), then the full…", () => {
  deepStrictEqual(
    lsLines([
      { name: "data", type: "directory", size: 0 },
      { name: "README.md", type: "file", size: 18 },
      { name: "secret.csv", type: "file", size: 7, restricted: true },
    ]),
    ["     -  data/", "  18 B  README.md", "   7 B  secret.csv  (restricted)"],
  );
});

Deno.test("infoLines: `info` output: one `field: value` line per field the entry has", () => {
  deepStrictEqual(
    infoLines({ name: "a.txt", type: "file", size: 2048, id: 7 }),
    [
      "name:         a.txt",
      "type:         file",
      "size:         2048 (2.0 KiB)",
      "id:           7",
    ],
  );
  deepStrictEqual(
    infoLines({
      name: "b",
      type: "file",
      size: 3,
      checksum: { type: "SHA-1", value: "a999" },
      restricted: true,
    }).slice(3),
    ["checksum:     SHA-1 a999", "access:       restricted"],
  );
});

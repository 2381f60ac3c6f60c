// Behaviour of src/base/checksum.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal } from "node:assert/strict";
import { checksumKind, listedChecksum } from "../../../src/base/checksum.ts";

Deno.test("checksumKind: The hash that computes a checksum of the listed `type` (`MD5`, `SHA-1`, `SHA-256`,…", () => {
  equal(checksumKind("SHA-1"), "sha1");
  equal(checksumKind("md5"), "md5");
  equal(checksumKind("UNF"), undefined);
});

Deno.test("listedChecksum: The checksum a file is listed with: its `checksum`, else its `md5`", () => {
  deepStrictEqual(
    listedChecksum({ md5: "900150983cd24fb0d6963f7d28e17f72" }),
    { type: "MD5", value: "900150983cd24fb0d6963f7d28e17f72" },
  );
});

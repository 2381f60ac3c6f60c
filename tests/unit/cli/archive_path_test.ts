import { deepStrictEqual, equal } from "node:assert/strict";
import { splitArchivePath } from "../../../src/cli/archive_path.ts";
import { placeMembers } from "../../../src/cli/member_download.ts";

Deno.test("splitArchivePath splits at each !/; a trailing ! is the archive's root", () => {
  deepStrictEqual(splitArchivePath("data/x.csv"), {
    archives: [],
    inner: "data/x.csv",
  });
  deepStrictEqual(splitArchivePath("data.zip!/docs/a.txt"), {
    archives: ["data.zip"],
    inner: "docs/a.txt",
  });
  deepStrictEqual(splitArchivePath("a.zip!/b/c.zip!/"), {
    archives: ["a.zip", "b/c.zip"],
    inner: "",
  });
  deepStrictEqual(splitArchivePath("a.zip!"), {
    archives: ["a.zip"],
    inner: "",
  });
  equal(splitArchivePath("wow!.txt").archives.length, 0);
});

Deno.test("placeMembers names members by their path in the archive and sets apart a second file for one place", () => {
  const file = (name: string) => ({ name, type: "file" as const, size: 1 });
  const placed = placeMembers([
    file("a.zip!/docs/x.txt"),
    file("b.zip!/c.zip!/y.txt"),
    file("docs/x.txt"),
    file("plain.txt"),
  ]);
  deepStrictEqual(placed.files.map((f) => f.name), [
    "docs/x.txt",
    "y.txt",
    "plain.txt",
  ]);
  deepStrictEqual(placed.clashes.map((f) => f.name), ["docs/x.txt"]);
  deepStrictEqual([...placed.members], [
    ["docs/x.txt", "a.zip!/docs/x.txt"],
    ["y.txt", "b.zip!/c.zip!/y.txt"],
  ]);
});

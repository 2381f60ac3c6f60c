// Behaviour of src/cli/safe_path.ts, moved here from the examples on its internal symbols.
import { rejects, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import {
  isInside,
  OutputRoot,
  UnsafePathError,
  unsafePathReason,
} from "../../../src/cli/safe_path.ts";

Deno.test("UnsafePathError: A dataset path that `get` refuses to write", () => {
  const error = new UnsafePathError("../x", 'it has a ".." segment');
  strictEqual(error.message, 'refused "../x": it has a ".." segment');
  strictEqual(error.reason, 'it has a ".." segment');
});

Deno.test("unsafePathReason: Why a dataset path cannot be used as a relative file path, or `undefined` when its text…", () => {
  strictEqual(unsafePathReason("climate.zarr/.zgroup"), undefined);
  strictEqual(unsafePathReason("../../etc/passwd"), 'it has a ".." segment');
  strictEqual(
    unsafePathReason("/etc/passwd"),
    "it is absolute (starts with /)",
  );
  strictEqual(unsafePathReason("C:evil"), "it has a drive letter");
  strictEqual(unsafePathReason("a\u001b[2J"), "it has a control character");
  strictEqual(
    unsafePathReason(`d/${"x".repeat(256)}`),
    "it has a name of 256 bytes, longer than file systems take (255)",
  );
});

Deno.test("isInside: Whether `path` is `root` or below it; both absolute", () => {
  strictEqual(isInside("/data/out", "/data/out/a/b"), true);
  strictEqual(isInside("/data/out", "/data/out"), true);
  strictEqual(isInside("/data/out", "/data/outside"), false);
});

Deno.test("OutputRoot: Where dataset paths land below one output folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const root = await OutputRoot.open(dir);
    const target = await root.prepare("a/b.txt");
    strictEqual(target, join(root.path, "a", "b.txt"));
    strictEqual((await Deno.stat(join(root.path, "a"))).isDirectory, true); // created
    await Deno.writeTextFile(target, "hello");
    await rejects(root.prepare("../b.txt"), UnsafePathError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

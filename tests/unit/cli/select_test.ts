// Behaviour of src/cli/select.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoFs } from "../../../mod.ts";
import { selectFiles } from "../../../src/cli/select.ts";

Deno.test("selectFiles: Matches `get`'s patterns", async () => {
  await using emu = await startEmulator({
    files: {
      "climate.zarr/.zgroup": "{}",
      "climate.zarr/t/.zarray": "{}",
      "README.md": "# hi",
      "notes.txt": "n",
    },
    entries: [{ directoryLabel: "..", filename: "x.txt", file: "evil" }],
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const { files, refused, unmatched } = await selectFiles(fs, [
    "climate.zarr",
    "*.md",
    "*.nc",
  ]);
  deepStrictEqual(files.map((file) => file.name), [
    "README.md",
    "climate.zarr/.zgroup",
    "climate.zarr/t/.zarray",
  ]);
  deepStrictEqual(refused, []);
  deepStrictEqual(unmatched, ["*.nc"]);
  const everything = await selectFiles(fs, ["/"]); // the listing's "../x.txt" included
  deepStrictEqual(everything.refused.map((refusal) => refusal.path), [
    "../x.txt",
  ]);
});

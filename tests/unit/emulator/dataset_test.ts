// Behaviour of src/emulator/dataset.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { buildDataset, findVersion } from "../../../src/emulator/dataset.ts";

Deno.test("DatasetVersion: One version of the dataset", () => {
  const dataset = buildDataset(
    { main: [{ filename: "a", file: "x" }], versions: {} },
    "doi:1/2",
    "root",
  );
  strictEqual(findVersion(dataset, ":latest")?.idsByPath.get("a"), 1001);
});

Deno.test("Dataset: The whole emulated dataset", () => {
  const dataset = buildDataset(
    { main: [], versions: {} },
    "doi:10.5072/FK2/X",
    "root",
  );
  strictEqual(dataset.filesById.size, 0);
});

Deno.test("buildDataset: Builds the dataset from its sources", () => {
  const dataset = buildDataset(
    {
      main: [{ directoryLabel: "d", filename: "a", file: "x" }],
      versions: {
        "1.0": [{ directoryLabel: "d", filename: "a", file: "old" }],
      },
    },
    "doi:10.5072/FK2/X",
    "root",
  );
  strictEqual(
    dataset.filesById.get(1001)?.contentType,
    "application/octet-stream",
  );
  strictEqual(dataset.named.get("1.0")?.idsByPath.get("d/a"), 1002);
});

Deno.test("findVersion: The version a name stands for: a named version when there is one by that name, else the main…", () => {
  const dataset = buildDataset({ main: [], versions: {} }, "doi:1/2", "root");
  strictEqual(findVersion(dataset, "1.0"), undefined);
  strictEqual(findVersion(dataset), dataset.main);
  strictEqual(findVersion(dataset, ":draft"), dataset.main);
});

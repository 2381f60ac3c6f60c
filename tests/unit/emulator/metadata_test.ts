// Behaviour of src/emulator/metadata.ts, moved here from the examples on its internal symbols.
import { equal, match, notEqual, strictEqual } from "node:assert/strict";
import {
  collectionItem,
  fileAnswer,
  fileEntry,
  filePid,
  versionObject,
  versionSummary,
} from "../../../src/emulator/metadata.ts";

Deno.test("collectionItem: An item of the collection contents listing, with exactly the fields the real repository sends", () => {
  const item = collectionItem({
    pid: "doi:10.5072/FK2/X",
    datasetId: 1,
    createdAt: new Date(),
  });
  strictEqual(item.identifier, "FK2/X");
  strictEqual(item.authority, "10.5072");
  strictEqual(item.persistentUrl, "https://doi.org/10.5072/FK2/X");
});

Deno.test("versionObject: A dataset version object with its files", () => {
  const facts = {
    pid: "doi:10.5072/FK2/X",
    datasetId: 1,
    createdAt: new Date(),
  };
  equal(
    versionObject(facts, { id: 1, internalVersionNumber: 1 }, []).versionState,
    "DRAFT",
  );
  const withdrawn = {
    id: 2,
    internalVersionNumber: 2,
    name: "1.0",
    deaccessioned: true,
  };
  equal(versionObject(facts, withdrawn, []).versionState, "DEACCESSIONED");
});

Deno.test("fileEntry: A file entry of a version's `files`", () => {
  const entry = fileEntry(
    {
      id: 7,
      filename: "a.txt",
      contentType: "text/plain",
      listedSize: 2,
      checksum: {
        type: "SHA-1",
        value: "c22b5f9178342609428d6f51b2c5af4c0bde6a42",
      },
      restricted: false,
      storageIdentifier: "s3://bucket:18c0-7",
    },
    1,
    new Date(),
  );
  equal("directoryLabel" in entry, false);
  equal(
    "md5" in (entry.dataFile as object),
    false,
    "md5 only for an MD5 checksum",
  );
  const table = fileEntry(
    {
      id: 8,
      filename: "t.tab",
      contentType: "text/tab-separated-values",
      listedSize: 4,
      checksum: null,
      restricted: false,
      embargo: "2999-01-01",
      storageIdentifier: "s3://bucket:18c0-8",
      original: { fileName: "t.csv", size: 9 },
    },
    1,
    new Date(),
  );
  const dataFile = table.dataFile as {
    tabularData: boolean;
    embargo: { dateAvailable: string };
  };
  equal(dataFile.tabularData, true);
  equal(dataFile.embargo.dateAvailable, "2999-01-01");
});

Deno.test("filePid: The persistent id of a file, as installations that register file DOIs mint it: the dataset's, a…", () => {
  match(
    filePid("doi:10.5072/FK2/X", 1001),
    /^doi:10\.5072\/FK2\/X\/[0-9A-Z]{6}$/,
  );
  notEqual(
    filePid("doi:10.5072/FK2/X", 1001),
    filePid("doi:10.5072/FK2/X", 1002),
  );
});

Deno.test("versionSummary: A version object without its files, as the list of versions gives it", () => {
  equal(
    "files" in versionSummary({ id: 1, versionState: "DRAFT", files: [] }),
    false,
  );
});

Deno.test("fileAnswer: The answer of `/api/files/:persistentId/` for a file entry of a version: the entry, with the…", () => {
  const answer = fileAnswer(
    { label: "a.txt", dataFile: { id: 7 } },
    { id: 1, datasetPersistentId: "doi:10.5072/FK2/X", files: [] },
  );
  equal(
    (answer.datasetVersion as { datasetPersistentId: string })
      .datasetPersistentId,
    "doi:10.5072/FK2/X",
  );
});

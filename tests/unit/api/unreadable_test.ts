// Behaviour of src/api/unreadable.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoApi } from "../../../src/api/repo_api.ts";
import {
  deaccessionedError,
  explainNotFound,
  readableVersions,
} from "../../../src/api/unreadable.ts";
import { RepoHttpError } from "../../../src/base/errors.ts";
import { filePid } from "../../../src/emulator/metadata.ts";

Deno.test("deaccessionedError: The DeaccessionedError for a dataset (`version` undefined) or a version, naming the…", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "draft" },
    versions: { "1.0": { "a.txt": "first" }, "2.0": { "a.txt": "second" } },
    deaccessioned: ["1.0"],
  });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const error = await deaccessionedError(api, emu.pid, "1.0");
  deepStrictEqual(error.readableVersions, ["2.0", ":draft"]);
});

Deno.test("readableVersions: The versions of a list of versions that can still be read, as the `version` option takes…", () => {
  deepStrictEqual(
    readableVersions([
      { versionState: "DRAFT" },
      {
        versionNumber: 2,
        versionMinorNumber: 0,
        versionState: "DEACCESSIONED",
      },
      { versionNumber: 1, versionMinorNumber: 10, versionState: "RELEASED" },
      { versionNumber: 1, versionMinorNumber: 2, versionState: "RELEASED" },
    ]),
    ["1.2", "1.10", ":draft"],
  );
});

Deno.test("explainNotFound: `error`, or, when it is the dataset endpoint's 404 and the persistent id turns out to be…", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello" },
    filePids: true,
  });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const pid = filePid(emu.pid, emu.fileId("a.txt")); // the file's own DOI
  const notFound = new RepoHttpError(
    404,
    `${api.base}/datasets/:persistentId/`,
  );
  const error = await explainNotFound(api, pid, notFound) as RepoHttpError;
  strictEqual(
    error.detail,
    `${pid} is the persistent id of the file "a.txt", not of a dataset; the file's dataset is ${emu.pid}`,
  );
});

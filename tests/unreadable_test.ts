import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import {
  deaccessionedError,
  explainNotFound,
  readableVersions,
} from "../src/api/unreadable.ts";
import { RepoHttpError } from "../src/base/errors.ts";
import { filePid } from "../src/emulator/metadata.ts";
import { explainRefusal } from "../src/content/refusal.ts";

Deno.test("a deaccessioned dataset or version is named", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "draft" },
    versions: { "1.0": { "a.txt": "first" }, "2.0": { "a.txt": "second" } },
    deaccessioned: ["1.0"],
  });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const error = await deaccessionedError(api, emu.pid, "1.0");
  deepStrictEqual(error.readableVersions, ["2.0", ":draft"]);
});

Deno.test("readable versions leave out deaccessioned ones", () => {
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

Deno.test("a 404 of a deaccessioned pid is explained", async () => {
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

Deno.test("a 403 of a restricted file is explained", () => {
  const refused = new RepoHttpError(
    403,
    "https://r.example/api/access/datafile/7",
    "Not authorized.",
  );
  const file = {
    id: 7,
    size: 3,
    restricted: true,
    embargoedUntil: "2999-01-01",
  };
  const explained = explainRefusal(
    refused,
    file,
    "https://r.example/api",
    false,
  ) as Error;
  equal(
    explained.message,
    "HTTP 403 from https://r.example/api/access/datafile/7: Not authorized. (the file is embargoed until 2999-01-01; no API token was sent)",
  );
  equal(
    explainRefusal(refused, { id: 7, size: 3 }, "https://r.example/api", false),
    refused,
  );
});

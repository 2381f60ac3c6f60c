import {
  deepStrictEqual,
  equal,
  match,
  notEqual,
  rejects,
  strictEqual,
} from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { noSuchEndpoint } from "../src/emulator/listings.ts";
import {
  collectionItem,
  fileAnswer,
  fileEntry,
  filePid,
  versionObject,
  versionSummary,
} from "../src/emulator/metadata.ts";
import {
  clientGone,
  envelopeError,
  failureReply,
  jsonReply,
  xmlError,
} from "../src/emulator/replies.ts";
import { contentReply } from "../src/emulator/content.ts";
import { withCors } from "../src/emulator/cors.ts";

Deno.test("the emulator answers dataset and version endpoints", async () => {
  await using emu = await startEmulator({
    versions: { "1.0": { "a.txt": "old" } },
  });
  const version = (name: string) =>
    fetch(
      `${emu.host}/api/datasets/:persistentId/versions/${name}?persistentId=${emu.pid}`,
    );
  const { data } = await (await version("1.0")).json();
  strictEqual(data.versionState, "RELEASED");
  strictEqual(data.files[0].label, "a.txt");
  const missing = await version("2.0");
  strictEqual(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("the emulator pages files", async () => {
  await using emu = await startEmulator({ files: { a: "1", b: "2", c: "3" } });
  const response = await fetch(
    `${emu.host}/api/datasets/:persistentId/versions/:latest/files?persistentId=${emu.pid}&limit=2&offset=1`,
  );
  const page = await response.json();
  deepStrictEqual(page.data.map((file: { label: string }) => file.label), [
    "b",
    "c",
  ]);
  strictEqual(page.totalCount, 3);
});

Deno.test("the emulator lists versions newest first", async () => {
  await using emu = await startEmulator({
    versions: { "1.0": { "a.txt": "old" } },
  });
  const response = await fetch(
    `${emu.host}/api/datasets/:persistentId/versions?persistentId=${emu.pid}`,
  );
  const { data } = await response.json();
  deepStrictEqual(data.map((v: { id: number }) => v.id), [2, 1]);
  strictEqual("files" in data[0], false);
});

Deno.test("the emulator answers a file pid", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hi" },
    filePids: true,
  });
  const pid = filePid(emu.pid, emu.fileId("a.txt"));
  const response = await fetch(
    `${emu.host}/api/files/:persistentId/?persistentId=${pid}`,
  );
  const { data } = await response.json();
  strictEqual(data.label, "a.txt");
  strictEqual(data.datasetVersion.datasetPersistentId, emu.pid);
});

Deno.test("a rule's body replaces a JSON answer once", async () => {
  await using emu = await startEmulator({
    faults: { rules: [{ route: "collection", body: '{"status":"O' }] },
  });
  const contents = () => fetch(`${emu.host}/api/repos/root/contents`);
  await rejects((await contents()).json(), SyntaxError); // cut in half
  strictEqual((await (await contents()).json()).status, "OK");
});

Deno.test("an unknown path is a 404", async () => {
  const response = noSuchEndpoint();
  strictEqual(response.status, 404);
  strictEqual(
    (await response.json()).message,
    "API endpoint does not exist on this server.",
  );
});

Deno.test("a collection item has the real fields", () => {
  const item = collectionItem({
    pid: "doi:10.5072/FK2/X",
    datasetId: 1,
    createdAt: new Date(),
  });
  strictEqual(item.identifier, "FK2/X");
  strictEqual(item.authority, "10.5072");
  strictEqual(item.persistentUrl, "https://doi.org/10.5072/FK2/X");
});

Deno.test("a version object holds its files", () => {
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

Deno.test("a file entry as the repository lists it", () => {
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

Deno.test("a file pid extends the dataset's", () => {
  match(
    filePid("doi:10.5072/FK2/X", 1001),
    /^doi:10\.5072\/FK2\/X\/[0-9A-Z]{6}$/,
  );
  notEqual(
    filePid("doi:10.5072/FK2/X", 1001),
    filePid("doi:10.5072/FK2/X", 1002),
  );
});

Deno.test("a version summary has no files", () => {
  equal(
    "files" in versionSummary({ id: 1, versionState: "DRAFT", files: [] }),
    false,
  );
});

Deno.test("a file answer holds the entry and its version", () => {
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

Deno.test("jsonReply answers 200 JSON", async () => {
  const response = jsonReply(
    new TextEncoder().encode('{"status":"OK","data":[]}'),
  );
  strictEqual(response.headers.get("content-type"), "application/json");
  deepStrictEqual(await response.json(), { status: "OK", data: [] });
});

Deno.test("the error envelope has status ERROR", async () => {
  const response = envelopeError(401, "Bad API key");
  strictEqual(response.status, 401);
  deepStrictEqual(await response.json(), {
    status: "ERROR",
    message: "Bad API key",
  });
});

Deno.test("xmlError is S3-style", async () => {
  const response = xmlError(403, "AccessDenied", "Request has expired");
  strictEqual(
    await response.text(),
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
  );
});

Deno.test("the emulator's error matches its origin", async () => {
  const response = failureReply(503, "store");
  strictEqual(response.status, 503);
  strictEqual(response.headers.get("content-type"), "application/xml");
  strictEqual(
    (await response.text()).includes(
      "<Code>SlowDown</Code><Message>Service unavailable; please reduce your request rate.</Message>",
    ),
    true,
  );
  const echoed = failureReply(401, "repo", "Bad API key k-1");
  strictEqual((await echoed.json()).message, "Bad API key k-1");
});

Deno.test("an answer nobody reads", () => {
  strictEqual(clientGone().status, 499);
});

Deno.test("contentReply answers a range", async () => {
  const request = new Request("http://x/", { headers: { range: "bytes=1-2" } });
  const { response, sent } = contentReply(
    request,
    new Uint8Array([1, 2, 3, 4]),
    "application/octet-stream",
  );
  strictEqual(response.status, 206);
  strictEqual(response.headers.get("content-range"), "bytes 1-2/4");
  strictEqual(sent, 2);
  deepStrictEqual(await response.bytes(), new Uint8Array([2, 3]));
});

Deno.test("CORS preflight is answered 204", async () => {
  const handler = withCors(
    () => Promise.resolve(new Response("ok")),
    "X-Repo-key",
  );
  const preflight = await handler(
    new Request("http://x/", { method: "OPTIONS" }),
  );
  equal(preflight.status, 204);
  equal(
    preflight.headers.get("access-control-allow-headers"),
    "Range, Accept, X-Repo-key",
  );
  const answer = await handler(new Request("http://x/"));
  equal(answer.headers.get("access-control-allow-origin"), "*");
  await answer.body?.cancel();
});

import assert from "node:assert/strict";
import { type Emulator, startEmulator } from "../emulator.ts";
import { concat } from "../src/content/content.ts";
import { md5 } from "./support.ts";
import {
  ignoreRange,
  malformedJson,
  portalPage,
  redirects,
  shiftContentRange,
  shortBody,
} from "./emulator_faults.ts";
import { RepoFs } from "../mod.ts";

const DATASET_KEYS = [
  "id",
  "identifier",
  "persistentUrl",
  "protocol",
  "authority",
  "separator",
  "publisher",
  "storageIdentifier",
  "datasetType",
  "type",
];

const VERSION_KEYS = [
  "id",
  "datasetId",
  "datasetPersistentId",
  "datasetType",
  "storageIdentifier",
  "internalVersionNumber",
  "versionState",
  "latestVersionPublishingState",
  "deaccessionLink",
  "lastUpdateTime",
  "createTime",
  "license",
  "fileAccessRequest",
  "metadataBlocks",
  "files",
];

// deno-lint-ignore no-explicit-any
type Json = any;

function datasetUrl(emu: Emulator, pid = emu.pid): string {
  return `${emu.host}/api/datasets/:persistentId/?persistentId=${
    encodeURIComponent(pid)
  }`;
}

function accessUrl(emu: Emulator, path: string): string {
  return `${emu.host}/api/access/datafile/${emu.fileId(path)}`;
}

async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, { headers, redirect: "manual" });
  return { status: response.status, body: await response.json() };
}

async function files(emu: Emulator): Promise<Json[]> {
  const { body } = await getJson(datasetUrl(emu));
  return body.data.latestVersion.files;
}

async function resolve(emu: Emulator, path: string): Promise<string> {
  const response = await fetch(accessUrl(emu, path), {
    method: "HEAD",
    redirect: "manual",
  });
  await response.body?.cancel();
  assert.equal(response.status, 303);
  const location = response.headers.get("location");
  assert.ok(location);
  return location;
}

async function get(
  url: string,
  init: RequestInit = {},
): Promise<{ response: Response; text: string }> {
  const response = await fetch(url, { redirect: "manual", ...init });
  return { response, text: await response.text() };
}

Deno.test("the dataset listing has the repository's shape", async () => {
  await using emu = await startEmulator({
    files: {
      "top.txt": "top",
      "climate.zarr/temp/0.0": new Uint8Array([1, 2, 3]),
      "table.tab": {
        content: "a\tb\n1\t2\n",
        listedSize: 4,
        contentType: "text/tab-separated-values",
      },
      "nosize.bin": { content: "xyz", listedSize: null, md5: null },
    },
    entries: [{ directoryLabel: "", filename: "empty-label.txt", file: "e" }],
  });
  const { status, body } = await getJson(datasetUrl(emu));
  assert.equal(status, 200);
  assert.equal(body.status, "OK");
  const { latestVersion, ...item } = body.data;
  assert.deepEqual(Object.keys(item), DATASET_KEYS);
  assert.equal(item.identifier, "FK2/EMULATED");
  assert.equal(item.authority, "10.5072");
  assert.equal(item.protocol, "doi");
  for (const key of VERSION_KEYS) assert.ok(key in latestVersion, key);
  assert.equal(latestVersion.versionState, "DRAFT");
  assert.equal(latestVersion.latestVersionPublishingState, "DRAFT");
  assert.equal(latestVersion.datasetPersistentId, emu.pid);
  assert.match(latestVersion.lastUpdateTime, /^\d{4}-\d\d-\d\dT[\d:]{8}Z$/);
  const fields = latestVersion.metadataBlocks.citation.fields;
  assert.deepEqual(
    fields.map((f: Json) => f.typeName),
    ["title", "author", "datasetContact"],
  );
  assert.ok("authorName" in fields[1].value[0]);
  assert.ok("datasetContactName" in fields[2].value[0]);

  const [top, chunk, table, nosize, empty] = latestVersion.files;
  assert.equal(latestVersion.files.length, 5);
  assert.ok(!("directoryLabel" in top));
  assert.equal(top.dataFile.filename, "top.txt");
  assert.equal(top.dataFile.filesize, 3);
  assert.equal(top.dataFile.md5, md5("top"));
  assert.deepEqual(top.dataFile.checksum, { type: "MD5", value: md5("top") });
  assert.equal(top.dataFile.contentType, "application/octet-stream");
  assert.equal(top.restricted, false);
  assert.equal(top.dataFile.id, emu.fileId("top.txt"));
  assert.match(top.dataFile.storageIdentifier, /^s3:\/\/[\w-]+:[0-9a-f-]+$/);
  assert.equal(chunk.directoryLabel, "climate.zarr/temp");
  assert.equal(chunk.dataFile.filename, "0.0");
  assert.equal(table.dataFile.filesize, 4);
  assert.equal(table.dataFile.contentType, "text/tab-separated-values");
  assert.ok(!("filesize" in nosize.dataFile));
  assert.ok(!("md5" in nosize.dataFile));
  assert.ok(!("checksum" in nosize.dataFile));
  assert.equal(empty.directoryLabel, "");
  assert.equal(empty.dataFile.id, emu.fileId("empty-label.txt"));
  const ids = latestVersion.files.map((f: Json) => f.dataFile.id);
  assert.equal(new Set(ids).size, ids.length);
  assert.equal(emu.counters.listingCalls, 1);
});

Deno.test("unknown pids, paths, ids and versions answer 404 envelopes", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const other = await getJson(datasetUrl(emu, "doi:10.5072/FK2/OTHER"));
  assert.equal(other.status, 404);
  assert.deepEqual(other.body, {
    status: "ERROR",
    message: "Dataset with Persistent ID doi:10.5072/FK2/OTHER not found.",
  });
  const file = await getJson(`${emu.host}/api/access/datafile/999999`);
  assert.equal(file.status, 404);
  assert.equal(file.body.message, "File not found for given id.");
  const path = await getJson(`${emu.host}/api/nothing/here`);
  assert.equal(path.status, 404);
  assert.equal(path.body.status, "ERROR");
  const version = await getJson(
    `${emu.host}/api/datasets/:persistentId/versions/9.9?persistentId=${emu.pid}`,
  );
  assert.equal(version.status, 404);
  assert.equal(version.body.status, "ERROR");
  assert.throws(() => emu.fileId("missing.txt"), /missing\.txt/);
});

Deno.test("the dataset endpoint answers without the trailing slash", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const { status, body } = await getJson(
    `${emu.host}/api/datasets/:persistentId?persistentId=${emu.pid}`,
  );
  assert.equal(status, 200);
  assert.equal(body.data.latestVersion.files.length, 1);
});

Deno.test("the collection endpoint lists the dataset", async () => {
  await using emu = await startEmulator({ alias: "science" });
  const { status, body } = await getJson(
    `${emu.host}/api/repos/science/contents`,
  );
  assert.equal(status, 200);
  assert.equal(body.status, "OK");
  assert.equal(body.data.length, 1);
  assert.deepEqual(Object.keys(body.data[0]), DATASET_KEYS);
  assert.equal(body.data[0].storageIdentifier, "s3://10.5072/FK2/EMULATED");
  const unknown = await getJson(`${emu.host}/api/repos/root/contents`);
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.status, "ERROR");
  assert.equal(emu.counters.collectionCalls, 2);
});

Deno.test("the versions endpoint serves main and named versions", async () => {
  await using emu = await startEmulator({
    pid: "doi:10.1234/ABC/DEF",
    files: { "data/a.txt": "new" },
    versions: { "1.0": { "data/a.txt": "old", "data/gone.txt": "g" } },
  });
  const versionUrl = (name: string) =>
    `${emu.host}/api/datasets/:persistentId/versions/${name}?persistentId=${emu.pid}`;
  for (const name of [":latest", ":draft", ":latest-published"]) {
    const { status, body } = await getJson(versionUrl(name));
    assert.equal(status, 200, name);
    assert.equal(body.data.files.length, 1);
    assert.equal(body.data.files[0].dataFile.id, emu.fileId("data/a.txt"));
  }
  const { body } = await getJson(versionUrl("1.0"));
  assert.equal(body.data.files.length, 2);
  assert.equal(body.data.datasetPersistentId, "doi:10.1234/ABC/DEF");
  const oldId = emu.fileId("data/a.txt", "1.0");
  assert.notEqual(oldId, emu.fileId("data/a.txt"));
  assert.equal(body.data.files[0].dataFile.id, oldId);
  const location = await resolve(emu, "data/a.txt");
  assert.equal((await get(location)).text, "new");
  const oldHead = await fetch(`${emu.host}/api/access/datafile/${oldId}`, {
    method: "HEAD",
    redirect: "manual",
  });
  await oldHead.body?.cancel();
  assert.equal((await get(oldHead.headers.get("location")!)).text, "old");
  assert.equal(emu.counters.listingCalls, 4);
});

Deno.test("the access endpoint redirects to a signed store URL", async () => {
  await using emu = await startEmulator({
    files: { "d/data.bin": "0123456789" },
    token: "secret",
  });
  const headers = { "X-Repo-key": "secret" };
  const head = await fetch(accessUrl(emu, "d/data.bin"), {
    method: "HEAD",
    headers,
    redirect: "manual",
  });
  assert.equal(head.status, 303);
  assert.equal(await head.text(), "");
  const location = new URL(head.headers.get("location")!);
  assert.equal(location.origin, emu.storeOrigin);
  assert.notEqual(emu.storeOrigin, emu.host);
  const q = location.searchParams;
  assert.equal(q.get("X-Amz-Algorithm"), "AWS4-HMAC-SHA256");
  assert.match(q.get("X-Amz-Date")!, /^\d{8}T\d{6}Z$/);
  assert.equal(q.get("X-Amz-Expires"), "3600");
  assert.equal(q.get("X-Amz-SignedHeaders"), "host");
  assert.match(q.get("X-Amz-Signature")!, /^[0-9a-f]{64}$/);
  assert.ok(q.get("X-Amz-Credential"));

  const getRedirect = await get(accessUrl(emu, "d/data.bin"), { headers });
  assert.equal(getRedirect.response.status, 303);

  const url = location.href;
  const ranged = await get(url, { headers: { range: "bytes=2-5" } });
  assert.equal(ranged.response.status, 206);
  assert.equal(ranged.response.headers.get("content-range"), "bytes 2-5/10");
  assert.equal(ranged.response.headers.get("content-length"), "4");
  assert.equal(ranged.text, "2345");
  const open = await get(url, { headers: { range: "bytes=7-" } });
  assert.equal(open.response.headers.get("content-range"), "bytes 7-9/10");
  assert.equal(open.text, "789");
  const suffix = await get(url, { headers: { range: "bytes=-3" } });
  assert.equal(suffix.response.status, 206);
  assert.equal(suffix.text, "789");
  const clamped = await get(url, { headers: { range: "bytes=8-100" } });
  assert.equal(clamped.response.headers.get("content-range"), "bytes 8-9/10");
  const whole = await get(url);
  assert.equal(whole.response.status, 200);
  assert.equal(whole.text, "0123456789");
  const unsatisfiable = await get(url, { headers: { range: "bytes=10-20" } });
  assert.equal(unsatisfiable.response.status, 416);
  assert.equal(
    unsatisfiable.response.headers.get("content-range"),
    "bytes */10",
  );

  assert.equal(emu.counters.heads, 1);
  assert.equal(emu.counters.accessGets, 1);
  assert.equal(emu.counters.storeGets, 6);
  assert.equal(emu.counters.storeBytes, 4 + 3 + 3 + 2 + 10);
  assert.equal(emu.counters.storeRequestsWithToken, 0);
});

Deno.test("the store refuses bad signatures, HEADs and tokens are counted", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "abc" } });
  const url = new URL(await resolve(emu, "a.txt"));
  const tampered = new URL(url);
  tampered.searchParams.set("X-Amz-Expires", "999999");
  const bad = await get(tampered.href);
  assert.equal(bad.response.status, 403);
  assert.match(bad.text, /<Code>SignatureDoesNotMatch<\/Code>/);
  const bare = await get(`${emu.storeOrigin}${url.pathname}`);
  assert.equal(bare.response.status, 403);
  assert.match(bare.text, /SignatureDoesNotMatch/);
  const moved = await get(
    `${emu.storeOrigin}/repo-emulator/other${url.search}`,
  );
  assert.equal(moved.response.status, 403);
  const head = await fetch(url, { method: "HEAD" });
  await head.body?.cancel();
  assert.equal(head.status, 403);
  const withToken = await get(url.href, { headers: { "X-Repo-key": "t" } });
  assert.equal(withToken.text, "abc");
  assert.equal(emu.counters.storeRequestsWithToken, 1);
});

Deno.test("a token guards every repository endpoint", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "abc" },
    token: "secret",
  });
  for (
    const url of [
      datasetUrl(emu),
      `${emu.host}/api/repos/root/contents`,
      accessUrl(emu, "a.txt"),
      `${emu.host}/api/nothing`,
    ]
  ) {
    const attempts: Record<string, string>[] = [{}, { "X-Repo-key": "wrong" }];
    for (const headers of attempts) {
      const { status, body } = await getJson(url, headers);
      assert.equal(status, 401, url);
      assert.deepEqual(body, { status: "ERROR", message: "Bad API key" });
    }
  }
  const ok = await getJson(datasetUrl(emu), { "X-Repo-key": "secret" });
  assert.equal(ok.status, 200);
});

Deno.test("restricted files answer 403 with the repository's message", async () => {
  await using emu = await startEmulator({
    files: { "secret.txt": { content: "s", restricted: true } },
  });
  const [entry] = await files(emu);
  assert.equal(entry.restricted, true);
  for (const method of ["HEAD", "GET"]) {
    const response = await fetch(accessUrl(emu, "secret.txt"), {
      method,
      redirect: "manual",
    });
    const text = await response.text();
    assert.equal(response.status, 403);
    if (method === "GET") {
      assert.match(JSON.parse(text).message, /Not authorized to access/);
    }
  }
});

Deno.test("expireUrls expires the URLs signed before it", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "abc" } });
  const old = await resolve(emu, "a.txt");
  assert.equal((await get(old)).text, "abc");
  emu.expireUrls();
  const expired = await get(old);
  assert.equal(expired.response.status, 403);
  assert.equal(
    expired.text,
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
  );
  const fresh = await resolve(emu, "a.txt");
  assert.equal((await get(fresh)).text, "abc");
});

Deno.test("a URL with a 1 s lifetime expires", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "abc" },
    urlLifetimeSeconds: 1,
  });
  const url = await resolve(emu, "a.txt");
  assert.equal(new URL(url).searchParams.get("X-Amz-Expires"), "1");
  assert.equal((await get(url)).response.status, 200);
  await new Promise((resolve) => setTimeout(resolve, 2100));
  const expired = await get(url);
  assert.equal(expired.response.status, 403);
  assert.match(expired.text, /Request has expired/);
});

Deno.test("failure rules answer in each origin's format", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "abc", "b.txt": "bcd" },
    faults: {
      rules: [
        { route: "head", status: 429, times: 2 },
        { route: "store", status: 503, headers: { "retry-after": "2" } },
        { route: "listing", status: 502 },
        { route: "content", status: 500, pathIncludes: "/nothing-matches" },
      ],
    },
  });
  for (let i = 0; i < 2; i++) {
    const limited = await fetch(accessUrl(emu, "a.txt"), {
      method: "HEAD",
      redirect: "manual",
    });
    await limited.body?.cancel();
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), null);
  }
  const limitedBody = await getJson(datasetUrl(emu));
  assert.equal(limitedBody.status, 502);
  assert.equal(limitedBody.body.status, "ERROR");
  const url = await resolve(emu, "a.txt");
  const unavailable = await get(url);
  assert.equal(unavailable.response.status, 503);
  assert.equal(unavailable.response.headers.get("retry-after"), "2");
  assert.match(unavailable.text, /^<\?xml.*<Error><Code>SlowDown<\/Code>/);
  assert.equal((await get(url)).text, "abc");
  assert.equal(emu.counters.failuresInjected, 4);
  assert.equal(emu.faults.rules.length, 1);
  assert.equal(emu.counters.heads, 3);

  emu.faults.rules.push({ route: "repo", status: 429, file: "b.txt" });
  assert.equal((await resolve(emu, "a.txt")).length > 0, true);
  const onB = await getJson(accessUrl(emu, "b.txt"));
  assert.equal(onB.status, 429);
  assert.equal(onB.body.status, "ERROR");
});

Deno.test("cutAfter sends part of the body, then drops the connection", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": new Uint8Array(10_000).fill(7) },
    faults: { rules: [{ route: "content", cutAfter: "half" }] },
  });
  const url = await resolve(emu, "a.bin");
  const response = await fetch(url, { headers: { range: "bytes=0-999" } });
  assert.equal(response.status, 206);
  assert.equal(response.headers.get("content-length"), "1000");
  await assert.rejects(response.bytes(), TypeError);
  assert.equal(emu.counters.storeBytes, 500);
  assert.equal((await (await fetch(url)).bytes()).length, 10_000);
  assert.equal(emu.faults.rules.length, 0);
});

Deno.test("cutAfter 0 sends the headers, then drops the connection", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": new Uint8Array(1000).fill(7) },
    faults: { rules: [{ route: "content", cutAfter: 0 }] },
  });
  const url = await resolve(emu, "a.bin");
  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-length"), "1000");
  await assert.rejects(response.bytes(), TypeError);
  assert.equal((await (await fetch(url)).bytes()).length, 1000);
});

Deno.test("a respond hook reshapes the emulator's answer: fewer bytes than the Content-Range promises", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789" },
    faults: { respond: shortBody() },
  });
  const url = await resolve(emu, "a.txt");
  const whole = await get(url);
  assert.equal(whole.text, "0123456789");
  const short = await get(url, { headers: { range: "bytes=0-7" } });
  assert.equal(short.response.status, 206);
  assert.equal(short.response.headers.get("content-range"), "bytes 0-7/10");
  assert.equal(short.response.headers.get("content-length"), "4");
  assert.equal(short.text, "0123");
  const full = await get(url, { headers: { range: "bytes=0-7" } });
  assert.equal(full.text, "01234567");
});

Deno.test("a respond hook asks the emulator on the request's behalf: the whole body, range dropped", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789" },
    faults: { respond: ignoreRange() },
  });
  const url = await resolve(emu, "a.txt");
  const { response, text } = await get(url, {
    headers: { range: "bytes=2-3" },
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-range"), null);
  assert.equal(text, "0123456789");
});

Deno.test("with redirect off the access endpoint serves the bytes", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789" },
    token: "secret",
    faults: { redirect: false },
  });
  const headers = { "X-Repo-key": "secret" };
  const url = accessUrl(emu, "a.txt");
  const head = await fetch(url, {
    method: "HEAD",
    headers,
    redirect: "manual",
  });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get("content-length"), "10");
  assert.equal(head.headers.get("location"), null);
  assert.equal(await head.text(), "");
  const whole = await get(url, { headers });
  assert.equal(whole.response.status, 200);
  assert.equal(whole.text, "0123456789");
  const ranged = await get(url, {
    headers: { ...headers, range: "bytes=3-4" },
  });
  assert.equal(ranged.response.status, 206);
  assert.equal(ranged.response.headers.get("content-range"), "bytes 3-4/10");
  assert.equal(ranged.text, "34");
  const beyond = await get(url, {
    headers: { ...headers, range: "bytes=50-" },
  });
  assert.equal(beyond.response.status, 416);
  assert.equal(emu.counters.accessBytes, 12);
  assert.equal(emu.counters.storeGets, 0);
  assert.equal(emu.counters.storeBytes, 0);
  assert.equal(emu.counters.heads, 1);
  assert.equal(emu.counters.accessGets, 3);

  emu.faults.rules.push({ route: "content", cutAfter: "half" });
  const cut = await fetch(url, { headers });
  await assert.rejects(cut.bytes(), TypeError);
});

Deno.test("a rule's body replaces the JSON answers", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: {
      rules: [malformedJson(), { ...malformedJson(), route: "collection" }],
    },
  });
  for (
    const url of [datasetUrl(emu), `${emu.host}/api/repos/root/contents`]
  ) {
    const { response, text } = await get(url);
    assert.equal(response.status, 200);
    assert.throws(() => JSON.parse(text), SyntaxError);
  }
  assert.equal((await files(emu)).length, 1);
});

Deno.test("counters track concurrent HEADs during latency", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a", "b.txt": "b", "c.txt": "c", "d.txt": "d" },
    faults: { latencyMs: 100 },
  });
  const started = Date.now();
  await Promise.all(
    ["a.txt", "b.txt", "c.txt", "d.txt"].map((path) => resolve(emu, path)),
  );
  assert.ok(Date.now() - started >= 100);
  assert.equal(emu.counters.heads, 4);
  assert.equal(emu.counters.peakConcurrentHeads, 4);
  assert.equal(emu.counters.concurrentHeads, 0);
  emu.resetCounters();
  emu.faults.latencyMs = 0;
  await resolve(emu, "a.txt");
  assert.equal(emu.counters.heads, 1);
  assert.equal(emu.counters.peakConcurrentHeads, 1);
  assert.equal(emu.counters.storeGets, 0);
});

Deno.test("close ends latency waits and is idempotent", async () => {
  const emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: { latencyMs: 60_000 },
  });
  const pending = fetch(datasetUrl(emu));
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = Date.now();
  await Promise.all([emu.close(), emu.close()]);
  const response = await pending;
  await response.body?.cancel();
  assert.equal(response.status, 200);
  assert.ok(Date.now() - started < 5_000);
  await emu.close();
});

Deno.test("dir mode serves a folder recursively, dot-files included", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/store.zarr/temp`, { recursive: true });
    await Deno.writeTextFile(`${dir}/store.zarr/.zgroup`, '{"zarr_format":2}');
    await Deno.writeTextFile(`${dir}/store.zarr/temp/0.0`, "chunk");
    await Deno.writeTextFile(`${dir}/README.md`, "# hi");
    await using emu = await startEmulator({
      dir,
      files: { "first.txt": "1" },
    });
    const listed = await files(emu);
    assert.deepEqual(
      listed.map((f: Json) => [f.directoryLabel, f.dataFile.filename]),
      [
        [undefined, "first.txt"],
        [undefined, "README.md"],
        ["store.zarr", ".zgroup"],
        ["store.zarr/temp", "0.0"],
      ],
    );
    const url = await resolve(emu, "store.zarr/temp/0.0");
    assert.equal((await get(url)).text, "chunk");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("thousands of range reads stay quick", async () => {
  await using emu = await startEmulator({
    files: { "big.bin": new Uint8Array(1 << 20) },
  });
  const url = await resolve(emu, "big.bin");
  const started = Date.now();
  for (let batch = 0; batch < 20; batch++) {
    await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const start = (batch * 100 + i) * 100;
        const response = await fetch(url, {
          headers: { range: `bytes=${start}-${start + 99}` },
        });
        assert.equal((await response.bytes()).length, 100);
      }),
    );
  }
  assert.equal(emu.counters.storeGets, 2000);
  assert.ok(Date.now() - started < 10_000);
});

Deno.test("odd ranges follow HTTP: ignored when invalid, 416 when unsatisfiable", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789", "empty.txt": "" },
  });
  const url = await resolve(emu, "a.txt");
  const cases: [string, number, string][] = [
    ["bytes=5-2", 200, "0123456789"],
    ["bytes=0-1,4-5", 200, "0123456789"],
    ["items=0-1", 200, "0123456789"],
    ["bytes=-0", 416, ""],
    ["bytes=-20", 206, "0123456789"],
    ["bytes=9-9", 206, "9"],
  ];
  for (const [range, status, text] of cases) {
    const answer = await get(url, { headers: { range } });
    assert.equal(answer.response.status, status, range);
    assert.equal(answer.text, text, range);
  }
  const empty = await resolve(emu, "empty.txt");
  assert.equal((await get(empty)).response.status, 200);
  const none = await get(empty, { headers: { range: "bytes=0-" } });
  assert.equal(none.response.status, 416);
  assert.equal(none.response.headers.get("content-range"), "bytes */0");
});

Deno.test("entries keep hostile names verbatim", async () => {
  await using emu = await startEmulator({
    entries: [
      { directoryLabel: "a//b/", filename: "x y ü.txt", file: "1" },
      { directoryLabel: "/abs", filename: "..", file: "2" },
      { filename: "007", file: { content: "3", contentType: "text/plain" } },
    ],
  });
  const listed = await files(emu);
  assert.deepEqual(
    listed.map((f: Json) => [f.directoryLabel, f.dataFile.filename]),
    [["a//b/", "x y ü.txt"], ["/abs", ".."], [undefined, "007"]],
  );
  assert.equal(listed[0].dataFile.id, emu.fileId("a//b//x y ü.txt"));
  const url = await resolve(emu, "007");
  const { response, text } = await get(url);
  assert.equal(text, "3");
  assert.equal(response.headers.get("content-type"), "text/plain");
});

Deno.test("a failure rule on any target fires on either origin", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "abc" } });
  const url = await resolve(emu, "a.txt");
  emu.faults.rules = [{ route: "any", status: 504, times: 2 }];
  const store = await get(url);
  assert.equal(store.response.status, 504);
  assert.match(store.text, /<Error>/);
  const repo = await getJson(datasetUrl(emu));
  assert.equal(repo.status, 504);
  assert.equal(repo.body.status, "ERROR");
  assert.deepEqual(emu.faults.rules, []);
  assert.equal((await get(url)).text, "abc");
});

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`Gave up waiting for ${what}`);
}

/** Guards against a hang; it does not time anything. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hangs`)), 20_000);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

async function readBytes(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  count: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  while (length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.length;
  }
  return concat(chunks);
}

function settledFlag(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(() => settled = true, () => settled = true);
  return () => settled;
}

function counting(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251);
}

Deno.test("tabular files list the original CSV's fields", async () => {
  const table = "name\tvalue\na\t1\n";
  await using emu = await startEmulator({
    files: {
      "d/table.tab": { content: table, listedSize: 4, tabular: true },
      "raw": { content: "x\ty\n", tabular: true },
      "plain.txt": "p",
    },
  });
  const [tab, raw, plain] = await files(emu);
  assert.equal(tab.dataFile.tabularData, true);
  assert.equal(tab.dataFile.filesize, 4);
  assert.equal(tab.dataFile.originalFileFormat, "text/csv");
  assert.equal(tab.dataFile.originalFormatLabel, "Comma Separated Values");
  assert.equal(tab.dataFile.originalFileName, "table.csv");
  assert.equal(tab.dataFile.originalFileSize, table.length);
  assert.equal(raw.dataFile.originalFileName, "raw.csv");
  assert.equal(raw.dataFile.originalFileSize, 4);
  for (
    const key of [
      "tabularData",
      "originalFileFormat",
      "originalFormatLabel",
      "originalFileName",
      "originalFileSize",
    ]
  ) {
    assert.ok(!(key in plain.dataFile), key);
  }
  const url = await resolve(emu, "d/table.tab");
  assert.equal((await get(url)).text, table);
});

Deno.test("a rule's headers set a verbatim Location, or remove it", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a", "b.txt": "b" },
  });
  for (const location of ["file:///etc/passwd", "data:,hello", "::not a url"]) {
    emu.faults.rules = [redirects(303, location)];
    for (const path of ["a.txt", "b.txt"]) {
      for (const method of ["HEAD", "GET"]) {
        const { response, text } = await get(accessUrl(emu, path), { method });
        assert.equal(response.status, 303);
        assert.equal(response.headers.get("location"), location);
        assert.equal(text, "");
      }
    }
  }
  emu.faults.rules = [redirects(302, null)];
  const bare = await get(accessUrl(emu, "a.txt"), { method: "HEAD" });
  assert.equal(bare.response.status, 302);
  assert.equal(bare.response.headers.has("location"), false);
  emu.faults.rules = [];
  assert.equal((await get(await resolve(emu, "a.txt"))).text, "a");
});

Deno.test("a rule's status keeps the emulator's answer: the redirect's status changes, its Location stays", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "abc" } });
  for (const status of [301, 302, 303, 307, 308]) {
    emu.faults.rules = [redirects(status)];
    for (const method of ["HEAD", "GET"]) {
      const { response } = await get(accessUrl(emu, "a.txt"), { method });
      assert.equal(response.status, status, `${method} ${status}`);
      const location = response.headers.get("location")!;
      assert.equal(new URL(location).origin, emu.storeOrigin);
      assert.equal((await get(location)).text, "abc");
    }
  }
  assert.equal(emu.counters.heads, 5);
  assert.equal(emu.counters.accessGets, 5);
});

Deno.test("a rule's status, headers and body answer a login page instead of the file", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789" },
    faults: { rules: [portalPage(2)] },
  });
  const url = await resolve(emu, "a.txt");
  const store = await get(url, { headers: { range: "bytes=2-5" } });
  assert.equal(store.response.status, 200);
  assert.equal(store.response.headers.get("content-type"), "text/html");
  assert.equal(store.response.headers.get("content-range"), null);
  assert.equal(store.response.headers.get("content-length"), "18");
  assert.equal(store.text, "<html>login</html>");
  emu.faults.redirect = false;
  const head = await get(accessUrl(emu, "a.txt"), { method: "HEAD" });
  assert.equal(head.response.status, 200);
  assert.equal(head.response.headers.get("content-length"), "10");
  assert.equal(emu.faults.rules[0].times, 1);
  const access = await get(accessUrl(emu, "a.txt"), {
    headers: { range: "bytes=50-" },
  });
  assert.equal(access.response.status, 200);
  assert.equal(access.text, "<html>login</html>");
  assert.equal(emu.faults.rules.length, 0);
  const real = await get(accessUrl(emu, "a.txt"), {
    headers: { range: "bytes=2-5" },
  });
  assert.equal(real.response.status, 206);
  assert.equal(real.text, "2345");
});

Deno.test("stallAfter sends part of the body, then nothing until the client aborts", async () => {
  const content = counting(1000);
  await using emu = await startEmulator({
    files: { "a.bin": content },
    faults: { rules: [{ route: "content", stallAfter: "half" }] },
  });
  const url = await resolve(emu, "a.bin");
  const client = new AbortController();
  const response = await fetch(url, { signal: client.signal });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-length"), "1000");
  const reader = response.body!.getReader();
  assert.deepEqual(await readBytes(reader, 500), content.subarray(0, 500));
  const more = reader.read();
  const settled = settledFlag(more);
  assert.equal((await get(url)).text.length, 1000);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(settled(), false);
  client.abort();
  await assert.rejects(more, (error: Error) => error.name === "AbortError");
  assert.equal(emu.faults.rules.length, 0);
  assert.equal(emu.counters.storeBytes, 500 + 1000);
});

Deno.test("stallAfter keeps an honest Content-Range on the access endpoint", async () => {
  const content = counting(100);
  await using emu = await startEmulator({
    files: { "a.bin": content },
    faults: {
      rules: [{ route: "content", stallAfter: "half" }],
      redirect: false,
    },
  });
  const client = new AbortController();
  const response = await fetch(accessUrl(emu, "a.bin"), {
    headers: { range: "bytes=10-29" },
    signal: client.signal,
  });
  assert.equal(response.status, 206);
  assert.equal(response.headers.get("content-range"), "bytes 10-29/100");
  assert.equal(response.headers.get("content-length"), "20");
  const reader = response.body!.getReader();
  assert.deepEqual(await readBytes(reader, 10), content.subarray(10, 20));
  const more = reader.read();
  client.abort();
  await assert.rejects(more, (error: Error) => error.name === "AbortError");
  assert.equal(emu.counters.accessBytes, 10);
});

Deno.test("trickle sends the body a few bytes at a time", async () => {
  const content = counting(500);
  await using emu = await startEmulator({
    files: { "a.bin": content },
    faults: {
      rules: [{
        route: "content",
        trickle: { bytes: 100, everyMs: 60_000 },
        times: 1,
      }],
    },
  });
  const url = await resolve(emu, "a.bin");
  const client = new AbortController();
  const slow = await fetch(url, { signal: client.signal });
  assert.equal(slow.headers.get("content-length"), "500");
  const reader = slow.body!.getReader();
  const first = await reader.read();
  assert.deepEqual(first.value, content.subarray(0, 100));
  const more = reader.read();
  client.abort();
  await assert.rejects(more, (error: Error) => error.name === "AbortError");

  emu.faults.rules = [{
    route: "content",
    trickle: { bytes: 100, everyMs: 10 },
    times: Infinity,
  }];
  const response = await fetch(url, { headers: { range: "bytes=0-499" } });
  assert.equal(response.status, 206);
  assert.equal(response.headers.get("content-length"), "500");
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body!) chunks.push(chunk);
  assert.deepEqual(concat(chunks), content);
  assert.ok(chunks.length >= 2, `${chunks.length} pieces`);

  emu.faults.redirect = false;
  const access = await fetch(accessUrl(emu, "a.bin"));
  assert.deepEqual(await access.bytes(), content);
  emu.faults.rules = [];
  assert.deepEqual(await (await fetch(url)).bytes(), content);
});

Deno.test("delayMs holds access HEADs until the client aborts", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: { rules: [{ route: "head", delayMs: 60_000 }] },
  });
  const client = new AbortController();
  const pending = fetch(accessUrl(emu, "a.txt"), {
    method: "HEAD",
    redirect: "manual",
    signal: client.signal,
  });
  await waitFor(() => emu.counters.concurrentHeads === 1, "the HEAD");
  const { response } = await get(accessUrl(emu, "a.txt"));
  assert.equal(response.status, 303);
  assert.equal((await getJson(datasetUrl(emu))).status, 200);
  assert.equal(emu.counters.concurrentHeads, 1);
  client.abort();
  await assert.rejects(pending, (error: Error) => error.name === "AbortError");
  await waitFor(() => emu.counters.concurrentHeads === 0, "the HEAD to end");
  assert.equal(emu.counters.heads, 1);
  assert.equal(emu.counters.peakConcurrentHeads, 1);

  emu.faults.rules = [{ route: "head", delayMs: 20 }];
  assert.ok(await resolve(emu, "a.txt"));
  assert.equal(emu.counters.concurrentHeads, 0);
});

Deno.test("latency waits end when the client aborts", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const url = await resolve(emu, "a.txt");
  emu.faults.latencyMs = 60_000;
  const client = new AbortController();
  const head = fetch(accessUrl(emu, "a.txt"), {
    method: "HEAD",
    redirect: "manual",
    signal: client.signal,
  });
  const store = fetch(url, { signal: client.signal });
  await waitFor(
    () =>
      emu.counters.concurrentHeads === 1 &&
      emu.counters.concurrentStoreGets === 1,
    "both requests",
  );
  client.abort();
  await assert.rejects(head, (error: Error) => error.name === "AbortError");
  await assert.rejects(store, (error: Error) => error.name === "AbortError");
  await waitFor(
    () =>
      emu.counters.concurrentHeads === 0 &&
      emu.counters.concurrentStoreGets === 0,
    "both requests to end",
  );
  assert.equal(emu.counters.storeBytes, 0);
});

Deno.test("close returns with stalled and trickled answers in flight", async () => {
  const content = counting(1000);
  const emu = await startEmulator({ files: { "a.bin": content } });
  const url = await resolve(emu, "a.bin");
  emu.faults.rules = [
    { route: "content", attempt: 1, stallAfter: "half" },
    { route: "content", attempt: 2, trickle: { bytes: 10, everyMs: 60_000 } },
    { route: "head", delayMs: 60_000 },
  ];
  const stalled = (await fetch(url)).body!.getReader();
  assert.equal((await readBytes(stalled, 500)).length, 500);
  const trickled = (await fetch(url)).body!.getReader();
  assert.equal((await trickled.read()).value?.length, 10);
  const head = fetch(accessUrl(emu, "a.bin"), {
    method: "HEAD",
    redirect: "manual",
  });
  await waitFor(() => emu.counters.concurrentHeads === 1, "the HEAD");
  const stalledRest = stalled.read();
  const trickledRest = trickled.read();
  await within(emu.close(), "close");
  await assert.rejects(stalledRest, TypeError);
  await assert.rejects(trickledRest, TypeError);
  const headResponse = await head;
  await headResponse.body?.cancel();
  assert.equal(headResponse.status, 303);
  assert.equal(emu.counters.concurrentHeads, 0);
});

Deno.test("echoToken quotes the request's key in the failure message", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const url = await resolve(emu, "a.txt");
  const echoToken = (request: Request) =>
    `Bad API key ${request.headers.get("X-Repo-key")}`;
  emu.faults.rules = [
    { route: "listing", status: 401, message: echoToken },
    { route: "store", status: 403, times: 2, message: echoToken },
  ];
  const repo = await getJson(datasetUrl(emu), { "X-Repo-key": "k-123" });
  assert.equal(repo.status, 401);
  assert.deepEqual(repo.body, {
    status: "ERROR",
    message: "Bad API key k-123",
  });
  const store = await get(url, { headers: { "X-Repo-key": "k-456" } });
  assert.equal(store.response.status, 403);
  assert.match(
    store.text,
    /<Code>AccessDenied<\/Code><Message>Bad API key k-456<\/Message>/,
  );
  const odd = await get(url, { headers: { "X-Repo-key": "a<b&c" } });
  assert.match(odd.text, /<Message>Bad API key a&lt;b&amp;c<\/Message>/);
  emu.faults.rules = [{ route: "listing", status: 500 }];
  const plain = await getJson(datasetUrl(emu), { "X-Repo-key": "k-123" });
  assert.equal(plain.body.message, "Internal server error.");
});

Deno.test("a respond hook rewrites the emulator's headers: Content-Range shifted by a byte", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "0123456789" },
    faults: { respond: shiftContentRange(2) },
  });
  const url = await resolve(emu, "a.txt");
  assert.equal((await get(url)).response.status, 200);
  const shifted = await get(url, { headers: { range: "bytes=2-5" } });
  assert.equal(shifted.response.status, 206);
  assert.equal(shifted.response.headers.get("content-range"), "bytes 3-6/10");
  assert.equal(shifted.response.headers.get("content-length"), "4");
  assert.equal(shifted.text, "2345");
  const past = await get(url, { headers: { range: "bytes=-2" } });
  assert.equal(past.response.headers.get("content-range"), "bytes 9-10/10");
  assert.equal(past.text, "89");
  const honest = await get(url, { headers: { range: "bytes=2-5" } });
  assert.equal(honest.response.headers.get("content-range"), "bytes 2-5/10");
});

Deno.test("storeRequests counts every store request", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const url = await resolve(emu, "a.txt");
  await get(url);
  await get(url, { method: "HEAD" });
  await get(`${emu.storeOrigin}/nowhere`, { method: "POST", body: "x" });
  assert.equal(emu.counters.storeRequests, 3);
  assert.equal(emu.counters.storeGets, 1);
});

Deno.test("CORS: preflights are answered for any origin; answers expose Content-Range, Content-Length and Location", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": "0123456789" },
    token: "cors-token",
  });
  const access = `${emu.host}/api/access/datafile/${emu.fileId("a.bin")}`;
  for (const url of [access, `${emu.storeOrigin}/anything`]) {
    const preflight = await fetch(url, {
      method: "OPTIONS",
      headers: {
        origin: "http://page.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "range, x-repo-key",
      },
    });
    await preflight.body?.cancel();
    assert.equal(preflight.status, 204, url);
    assert.equal(preflight.headers.get("access-control-allow-origin"), "*");
    const allowed = preflight.headers.get("access-control-allow-headers")!
      .toLowerCase();
    assert.ok(allowed.includes("range") && allowed.includes("x-repo-key"));
  }
  assert.equal(emu.counters.heads, 0, "a preflight is not a HEAD");
  const head = await fetch(access, {
    method: "HEAD",
    redirect: "manual",
    headers: { "x-repo-key": "cors-token" },
  });
  await head.body?.cancel();
  assert.equal(head.status, 303);
  assert.equal(head.headers.get("access-control-allow-origin"), "*");
  const exposed = head.headers.get("access-control-expose-headers")!;
  for (const name of ["Content-Range", "Content-Length", "Location"]) {
    assert.ok(exposed.includes(name), exposed);
  }
  const ranged = await fetch(head.headers.get("location")!, {
    headers: { range: "bytes=2-4" },
  });
  assert.equal(await ranged.text(), "234");
  assert.equal(ranged.headers.get("access-control-allow-origin"), "*");
  assert.equal(ranged.headers.get("content-range"), "bytes 2-4/10");
});

Deno.test("a folder is served with what is inside it only: a link out of it, a loop or a FIFO is refused", async () => {
  const dir = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${outside}/secret.txt`, "not the dataset's");
    await Deno.writeTextFile(`${dir}/a.txt`, "a");
    await Deno.mkdir(`${dir}/sub`);
    await Deno.symlink("../a.txt", `${dir}/sub/link.txt`);
    {
      await using emu = await startEmulator({ dir });
      const fs = new RepoFs({ host: emu.host, pid: emu.pid });
      assert.deepEqual(await fs.find(""), ["a.txt", "sub/link.txt"]);
      assert.equal(
        new TextDecoder().decode(await fs.catFile("sub/link.txt")),
        "a",
        "a link inside the folder is served",
      );
    }
    for (
      const [make, said] of [
        [
          () => Deno.symlink(`${outside}/secret.txt`, `${dir}/sub/leak.txt`),
          /sub\/leak\.txt leads outside/,
        ],
        [() => Deno.symlink(outside, `${dir}/away`), /away leads outside/],
        [() => Deno.symlink("..", `${dir}/sub/up`), /up leads back/],
        [
          () => new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output(),
          /fifo is neither a file nor a folder/,
        ],
      ] as const
    ) {
      await make();
      await assert.rejects(startEmulator({ dir }), said);
      await Deno.remove(`${dir}/sub`, { recursive: true });
      for (const name of ["away", "fifo"]) {
        await Deno.remove(`${dir}/${name}`).catch(() => {});
      }
      await Deno.mkdir(`${dir}/sub`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

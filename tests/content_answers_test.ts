import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import { RetryPolicy } from "../src/api/retry.ts";
import {
  BodyCursor,
  type CursorContext,
  PROGRESS_BYTES,
} from "../src/content/body_cursor.ts";
import { DownloadUrls } from "../src/urls/download_urls.ts";
import {
  needsSize,
  parseContentRange,
  planRange,
  rangeHeader,
} from "../src/content/byte_range.ts";
import {
  classifyAnswer,
  expectTotal,
  rangeFor,
  StaleUrlError,
  UNENCODED,
} from "../src/content/content_answer.ts";
import { RepoChangedError } from "../src/base/errors.ts";
import { SameObject } from "../src/content/same_object.ts";

Deno.test("a break counts as progress after 64 KiB", () => {
  strictEqual(PROGRESS_BYTES, 64 * 1024);
});

Deno.test("the body cursor reads a range chunk by chunk", async () => {
  // The first answer drops its connection half-way.
  await using emu = await startEmulator({
    files: { "a.txt": "hello world" },
    faults: { rules: [{ route: "content", cutAfter: "half" }] },
  });
  const api = RepoApi.connect({
    host: emu.host,
    timeoutMs: 60_000,
    retry: new RetryPolicy({ baseDelayMs: 1 }),
  });
  const context: CursorContext = {
    urls: new DownloadUrls(
      ({ id, format }, _stale, signal) => api.head(id, signal, format),
      3,
    ),
    transport: api.transport,
    retry: api.retry,
    repository: api.base,
    checked: new WeakSet(),
    learnTotal() {},
  };
  const cursor = new BodyCursor(
    context,
    { id: emu.fileId("a.txt"), size: 11 },
    { start: 2 },
  );
  let text = "";
  for (let chunk; (chunk = await cursor.next()) !== null;) {
    text += new TextDecoder().decode(chunk);
  }
  await cursor.close();
  strictEqual(text, "llo world");
  strictEqual(emu.counters.storeGets, 2); // resumed from the next byte
});

Deno.test("needsSize checks start and end", () => {
  strictEqual(needsSize(-10, undefined), false); // a suffix range
  strictEqual(needsSize(-10, -5), true);
  throws(() => needsSize(1.5), /start must be an integer/);
});

Deno.test("planRange counts negatives from the end", () => {
  deepStrictEqual(planRange(0, 100), { kind: "bounded", start: 0, end: 100 });
  deepStrictEqual(planRange(-8), { kind: "suffix", length: 8 });
  deepStrictEqual(planRange(-8, -4, 20), {
    kind: "bounded",
    start: 12,
    end: 16,
  });
  deepStrictEqual(planRange(5, 5), { kind: "empty" });
});

Deno.test("rangeHeader is absent for a whole file", () => {
  strictEqual(
    rangeHeader({ kind: "bounded", start: 0, end: 100 }),
    "bytes=0-99",
  );
  strictEqual(rangeHeader({ kind: "suffix", length: 8 }), "bytes=-8");
  strictEqual(rangeHeader({ kind: "from", start: 0 }), undefined);
});

Deno.test("a malformed Content-Range is a RepoProtocolError", () => {
  deepStrictEqual(parseContentRange("bytes 0-99/1000", "u"), {
    first: 0,
    last: 99,
    total: 1000,
  });
  throws(() => parseContentRange("bytes 0-99", "u"), /malformed Content-Range/);
});

Deno.test("a stale URL error names the refusal", () => {
  const refused = new Error("HTTP 403");
  const e = new StaleUrlError(refused, "https://s3.example/b/k");
  strictEqual(e.final, refused);
  strictEqual(e.message, "HTTP 403");
});

Deno.test("rangeFor is absent for the whole file", () => {
  const file = { id: 1, size: 100 };
  strictEqual(rangeFor({ start: 0, end: 10 }, file), "bytes=0-9");
  strictEqual(rangeFor({ start: 5 }, file), "bytes=5-");
  strictEqual(rangeFor({ start: 0, end: 100 }, file), undefined);
});

Deno.test("expectTotal checks the size an answer implies", () => {
  expectTotal(100, { id: 1, size: 100 }, "https://s3.example/k");
  throws(
    () => expectTotal(18, { id: 1, size: 100 }, "https://s3.example/k"),
    /listing says 100/,
  );
  const tabular = { id: 1, size: 100, tabular: true, answeredSize: 150 };
  throws(
    () => expectTotal(120, tabular, "https://s3.example/k"),
    /changed during the read \(150 bytes, then 120\)/,
  );
});

Deno.test("content requests ask for no encoding", () => {
  strictEqual(UNENCODED["Accept-Encoding"], "identity");
});

Deno.test("classifyAnswer sorts answers", async () => {
  const response = new Response("abc", {
    status: 206,
    headers: { "content-range": "bytes 10-12/100" },
  });
  const target = {
    url: "https://s3.example/k",
    direct: false,
    resolvedAt: 0,
    expiresAt: Infinity,
  };
  const answer = await classifyAnswer(response, { start: 10, end: 13 }, {
    id: 1,
    size: 100,
  }, target);
  deepStrictEqual(answer, {
    kind: "body",
    from: 10,
    skip: 0,
    end: 13,
    whole: false,
    total: 100,
  });
  await response.body?.cancel();
});

const V1 = { etag: '"v1"', lastModified: null };

Deno.test("known validators are sent and read out", () => {
  const object = new SameObject(V1);
  deepStrictEqual(object.pinned, V1);
  deepStrictEqual(object.conditions(), { "If-Match": '"v1"' });
  deepStrictEqual(new SameObject().pinned, undefined);
});

Deno.test("adopt pins the first validators", () => {
  const object = new SameObject();
  object.adopt(V1, "f.bin");
  deepStrictEqual(object.pinned, V1);
  object.adopt(V1, "f.bin");
  object.adopt({ etag: null, lastModified: null }, "f.bin");
  throws(
    () => object.adopt({ etag: '"v2"', lastModified: null }, "f.bin"),
    (e: unknown) =>
      e instanceof RepoChangedError &&
      e.message.includes('ETag "v1", then "v2"'),
  );
  const none = new SameObject({ etag: null, lastModified: null });
  throws(() => none.adopt(V1, "f.bin"), RepoChangedError);
});

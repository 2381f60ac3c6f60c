import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import {
  IsADirectoryError,
  listCollection,
  NotFoundError,
  RepoChangedError,
  RepoConnectionError,
  RepoFs,
  type RepoFsOptions,
  RepoHttpError,
  RepoProtocolError,
} from "../mod.ts";
import { type Emulator, type FaultRule, startEmulator } from "../emulator.ts";
import { PROGRESS_BYTES } from "../src/content/body_cursor.ts";
import { collect, concat, ContentReader } from "../src/content/content.ts";
import { errorDetail, RepoApi } from "../src/api/repo_api.ts";
import { INTERNALS } from "../src/repo_fs.ts";
import { bounded, patterned, recordingLogger, shownForms } from "./support.ts";
import {
  type CountedHook,
  gzipBody,
  ignoreRange,
  portalPage,
  rangeCap,
  redirects,
  shiftContentRange,
  shortBody,
  unsaidTotal,
} from "./emulator_faults.ts";
import { DownloadUrls } from "../src/urls/download_urls.ts";

/** Content answers streamed, saying no `Content-Length`. */
const UNSAID_LENGTH: FaultRule = {
  route: "content",
  headers: { "content-length": null },
  times: Infinity,
};

const TOKEN = "s3cr3t-token-value";
const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 20 };
const BIG = patterned(3 * 1024 * 1024 + 17, 3);

const VARIED = {
  "data/big.bin": BIG,
  "data/empty.bin": "",
  "data/nosize.bin": { content: patterned(5000, 9), listedSize: null },
  "tables/survey.tab": {
    content: "name\tvalue\nalpha\t1\nbeta\t2\n",
    listedSize: 18,
    contentType: "text/tab-separated-values",
    tabular: true,
  },
  "climate.zarr/.zgroup": '{"zarr_format":2}',
  "climate.zarr/t/0.0": patterned(4096, 1),
  "climate.zarr/t/0.1": patterned(4096, 2),
  "7": patterned(100, 7),
};

function bytesOf(
  value: Uint8Array | string | { content: Uint8Array | string },
) {
  const content = typeof value === "object" && "content" in value
    ? value.content
    : value;
  return typeof content === "string"
    ? new TextEncoder().encode(content)
    : content;
}

async function setup(
  options: Partial<RepoFsOptions> = {},
  emulator: Parameters<typeof startEmulator>[0] = {},
) {
  const emu = await startEmulator({ files: VARIED, token: TOKEN, ...emulator });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: TOKEN,
    retry: FAST_RETRY,
    ...options,
  });
  return { emu, fs, [Symbol.asyncDispose]: () => emu.close() };
}

function assertNoTokenLeak(emu: Emulator) {
  equal(
    emu.counters.storeRequestsWithToken,
    0,
    "the token never reaches the store",
  );
}

/** A tiny deterministic random generator, so failures are reproducible. */
function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

Deno.test("every byte of every file, whole and in random ranges", async () => {
  await using t = await setup({ headConcurrency: 2 });
  const paths = Object.keys(VARIED);
  for (const path of paths) {
    deepStrictEqual(
      await t.fs.catFile(path),
      bytesOf(VARIED[path as keyof typeof VARIED]),
      path,
    );
  }
  const next = random(42);
  for (let i = 0; i < 120; i++) {
    const path = paths[Math.floor(next() * paths.length)];
    const source = bytesOf(VARIED[path as keyof typeof VARIED]);
    const n = source.byteLength;
    const start = Math.floor(next() * (n + 10)) - (next() < 0.3 ? n : 0);
    const end = next() < 0.2
      ? undefined
      : Math.floor(next() * (n + 10)) - (next() < 0.3 ? n : 0);
    const expected = end === undefined
      ? source.slice(start)
      : source.slice(start, end);
    deepStrictEqual(
      await t.fs.catFile(path, { start, end }),
      expected,
      `${path} ${start}..${end}`,
    );
  }
  equal(
    t.emu.counters.heads,
    paths.length - 1,
    "one HEAD per file read; none for the file listed as empty",
  );
  assertNoTokenLeak(t.emu);
});

Deno.test("fsspec range semantics", async () => {
  await using t = await setup();
  const f = "climate.zarr/t/0.0";
  const src = bytesOf(VARIED[f]);
  const cases: [number | undefined, number | undefined, Uint8Array][] = [
    [undefined, undefined, src],
    [0, 100, src.slice(0, 100)],
    [100, 0, new Uint8Array(0)],
    [5, 5, new Uint8Array(0)],
    [-10, undefined, src.slice(-10)],
    [-10, -2, src.slice(-10, -2)],
    [10, -10, src.slice(10, -10)],
    [4000, 9999, src.slice(4000)],
    [9999, undefined, new Uint8Array(0)],
    [9999, 10005, new Uint8Array(0)],
    [-99999, 3, src.slice(0, 3)],
  ];
  for (const [start, end, expected] of cases) {
    deepStrictEqual(
      await t.fs.catFile(f, { start, end }),
      expected,
      `${start}..${end}`,
    );
  }
  await rejects(t.fs.catFile(f, { start: 1.5 }), TypeError);
  await rejects(t.fs.catFile("climate.zarr"), IsADirectoryError);
  await rejects(t.fs.catFile("climate.zarr/t/9.9"), NotFoundError);
});

Deno.test("zero-byte files and files without a listed size", async () => {
  await using t = await setup();
  deepStrictEqual(await t.fs.catFile("data/empty.bin"), new Uint8Array(0));
  deepStrictEqual(
    await t.fs.catFile("data/empty.bin", { start: 0, end: 10 }),
    new Uint8Array(0),
  );
  deepStrictEqual(
    await t.fs.catFile("data/empty.bin", { start: -4 }),
    new Uint8Array(0),
  );
  equal((await t.fs.info("data/nosize.bin")).size, null);
  const nosize = bytesOf(VARIED["data/nosize.bin"]);
  deepStrictEqual(await t.fs.catFile("data/nosize.bin"), nosize);
  deepStrictEqual(
    await t.fs.catFile("data/nosize.bin", { start: -100, end: -50 }),
    nosize.slice(-100, -50),
  );
});

Deno.test("a listed size that cannot be a byte count is no size: reads from the end stay right", async () => {
  const content = patterned(3000, 12);
  await using t = await setup({}, {
    files: {
      "huge.bin": { content, listedSize: 1e20 },
      "half.bin": { content, listedSize: 2999.5 },
      "negative.bin": { content, listedSize: -1 },
    },
  });
  for (const path of ["huge.bin", "half.bin", "negative.bin"]) {
    equal((await t.fs.info(path)).size, null, path);
    deepStrictEqual(
      await t.fs.catFile(path, { start: -10 }),
      content.slice(-10),
      path,
    );
    deepStrictEqual(
      await t.fs.catFile(path, { start: -20, end: -10 }),
      content.slice(-20, -10),
      path,
    );
    deepStrictEqual(await t.fs.catFile(path), content, path);
  }
});

Deno.test("a full read returns more than the listed size (ingested tabular files)", async () => {
  await using t = await setup();
  const info = await t.fs.info("tables/survey.tab");
  equal(info.size, 18);
  const text = new TextDecoder().decode(
    await t.fs.catFile("tables/survey.tab"),
  );
  equal(text, "name\tvalue\nalpha\t1\nbeta\t2\n");
  const file = await t.fs.open("tables/survey.tab");
  equal(new TextDecoder().decode(await collect(file.stream())), text);
  equal(
    new TextDecoder().decode(
      await t.fs.catFile("tables/survey.tab", { start: -7 }),
    ),
    "beta\t2\n",
  );
});

Deno.test("one HEAD per file id, shared by concurrent reads, limited by headConcurrency", async () => {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 50; i++) files[`chunks/${i}`] = patterned(256, i);
  await using t = await setup({ headConcurrency: 3 }, {
    files,
    faults: { latencyMs: 20 },
  });
  const reads = Object.keys(files).flatMap((
    p,
  ) => [t.fs.catFile(p), t.fs.catFile(p, { start: 10, end: 20 })]);
  const got = await Promise.all(reads);
  Object.values(files).forEach((bytes, i) => {
    deepStrictEqual(got[2 * i], bytes);
    deepStrictEqual(got[2 * i + 1], bytes.slice(10, 20));
  });
  equal(t.emu.counters.heads, 50);
  equal(t.emu.counters.peakConcurrentHeads, 3);
  ok(
    t.emu.counters.peakConcurrentStoreGets > 3,
    "store GETs do not wait on the HEAD semaphore",
  );
  const id = t.emu.fileId("chunks/0");
  const url = await t.fs.resolveDownloadUrl(id);
  ok(url.startsWith(t.emu.storeOrigin));
  ok(url.includes("X-Amz-Signature="));
  equal(t.emu.counters.heads, 50, "cached: no new HEAD");
  assertNoTokenLeak(t.emu);
});

Deno.test("an aborted read withdraws its URL ask: a HEAD nobody waits for is never sent", async () => {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 20; i++) files[`chunks/${i}`] = patterned(64, i);
  await using t = await setup({ headConcurrency: 1 }, {
    files,
    faults: { latencyMs: 40 },
  });
  await t.fs.info("");
  const gone = new AbortController();
  const kept = t.fs.catFile("chunks/0", { signal: gone.signal });
  const keptToo = t.fs.catFile("chunks/0");
  const dropped = Object.keys(files).slice(1).map((path) =>
    t.fs.catFile(path, { signal: gone.signal })
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  gone.abort(new Error("not needed"));
  for (const read of [kept, ...dropped]) {
    await rejects(read, /not needed/);
  }
  deepStrictEqual(await keptToo, files["chunks/0"], "a shared ask survives");
  equal(t.emu.counters.heads, 1, "only the HEAD someone still waited for");
  const id = t.emu.fileId("chunks/5");
  const withdrawn = new AbortController();
  withdrawn.abort(new Error("too late"));
  await rejects(
    t.fs[INTERNALS].urls.resolve({ id }, undefined, withdrawn.signal),
    /too late/,
  );
  ok((await t.fs.resolveDownloadUrl(id)).startsWith(t.emu.storeOrigin));
  equal(t.emu.counters.heads, 2, "a withdrawn file is looked up afresh");
});

Deno.test("getConcurrency bounds simultaneous content GETs", async () => {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 12; i++) files[`c/${i}`] = patterned(64, i);
  await using t = await setup({ getConcurrency: 2, headConcurrency: 12 }, {
    files,
    faults: { latencyMs: 15 },
  });
  await Promise.all(Object.keys(files).map((p) => t.fs.catFile(p)));
  equal(t.emu.counters.peakConcurrentStoreGets, 2);
  throws(
    () => new RepoFs({ host: t.emu.host, pid: t.emu.pid, getConcurrency: 0 }),
    /getConcurrency/,
  );
});

Deno.test("HEAD debug lines report wait and total time, and never the token", async () => {
  const logger = recordingLogger();
  await using t = await setup({ logger, headConcurrency: 1 }, {
    faults: { latencyMs: 10 },
  });
  await Promise.all([t.fs.catFile("7"), t.fs.catFile("climate.zarr/.zgroup")]);
  const heads = logger.lines.filter((l) =>
    l.level === "debug" && l.msg.startsWith("HEAD")
  );
  equal(heads.length, 2);
  for (const line of heads) {
    ok(
      /waited \d+\.\d ms for the semaphore, \d+\.\d ms in total/.test(line.msg),
      line.msg,
    );
  }
  const waits = heads.map((l) => Number(/waited (\S+) ms/.exec(l.msg)![1]));
  ok(Math.max(...waits) >= 5, "the second HEAD waited for the first");
  ok(
    logger.lines.every((l) =>
      !l.msg.includes(TOKEN) && !l.msg.includes("Signature")
    ),
  );
});

Deno.test("no-redirect mode: content from the access endpoint, with the token", async () => {
  await using t = await setup({}, { faults: { redirect: false } });
  deepStrictEqual(await t.fs.catFile("data/big.bin"), BIG);
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: 1000, end: 1010 }),
    BIG.slice(1000, 1010),
  );
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: -3 }),
    BIG.slice(-3),
  );
  equal(t.emu.counters.storeGets, 0);
  ok(t.emu.counters.accessGets >= 3);
  equal(
    await t.fs.resolveDownloadUrl(t.emu.fileId("data/big.bin")),
    `${t.emu.host}/api/access/datafile/${t.emu.fileId("data/big.bin")}`,
  );
});

Deno.test("repository errors carry its message: 401, 403 restricted, 404, 400 guestbook", async () => {
  await using t = await setup({}, {
    files: { ...VARIED, "restricted.bin": { content: "x", restricted: true } },
  });
  await rejects(t.fs.catFile("restricted.bin"), (e: unknown) => {
    ok(e instanceof RepoHttpError);
    equal(e.status, 403);
    ok(/Not authorized/.test(e.message), e.message);
    return true;
  });
  await rejects(t.fs.resolveDownloadUrl(999999), (e: unknown) => {
    ok(
      e instanceof RepoHttpError && e.status === 404 &&
        /File not found/.test(e.message),
      String(e),
    );
    return true;
  });
  t.emu.faults.rules.push({
    route: "repo",
    status: 400,
    times: 2,
    pathIncludes: "/access/",
  });
  await rejects(t.fs.catFile("7"), (e: unknown) => {
    ok(e instanceof RepoHttpError && e.status === 400, String(e));
    ok(/guestbook response is required/.test(e.message), e.message);
    return true;
  });
  equal(t.emu.faults.rules.length, 0, "HEAD, then a GET for the message");
  const wrong = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    token: "wrong",
  });
  await rejects(wrong.resolveDownloadUrl(t.emu.fileId("7")), (e: unknown) => {
    ok(
      e instanceof RepoHttpError && e.status === 401 &&
        /Bad API key/.test(e.message),
      String(e),
    );
    ok(!String(e).includes("wrong"));
    return true;
  });
});

Deno.test("429 bursts and 500/502/503/504 are retried; 404 is not; retries are bounded", async () => {
  await using t = await setup();
  t.emu.faults.rules.push(
    { route: "listing", status: 429, times: 2 },
    { route: "head", status: 503 },
    { route: "store", status: 500 },
    { route: "store", status: 502 },
    { route: "store", status: 504 },
    { route: "store", status: 429, times: 2 },
  );
  deepStrictEqual(await t.fs.catFile("7"), bytesOf(VARIED["7"]));
  equal(t.emu.counters.failuresInjected, 8);
  t.emu.faults.rules.push({ route: "store", status: 404, times: 5 });
  await rejects(
    t.fs.catFile("7", { start: 1, end: 2 }),
    (e: unknown) => e instanceof RepoHttpError && e.status === 404,
  );
  equal(t.emu.counters.failuresInjected, 9, "404 is not retried");
  t.emu.faults.rules.length = 0;
  const stubborn = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    token: TOKEN,
    retry: { ...FAST_RETRY, retries: 2 },
  });
  t.emu.faults.rules.push({ route: "head", status: 429, times: 100 });
  await rejects(
    stubborn.catFile("7"),
    (e: unknown) => e instanceof RepoHttpError && e.status === 429,
  );
  equal(t.emu.counters.failuresInjected, 12, "first attempt + 2 retries");
  t.emu.faults.rules.length = 0;
});

Deno.test("Retry-After is honoured", async () => {
  await using t = await setup({ retry: { baseDelayMs: 0, maxDelayMs: 5000 } });
  await t.fs.ls("");
  t.emu.faults.rules.push({
    route: "store",
    status: 429,
    headers: { "retry-after": "1" },
  });
  const started = performance.now();
  deepStrictEqual(await t.fs.catFile("7"), bytesOf(VARIED["7"]));
  ok(
    performance.now() - started >= 950,
    "waited the second the server asked for",
  );
});

Deno.test("truncated bodies, dropped connections and short bodies are retried, never returned", async () => {
  await using t = await setup();
  const cuts = {
    truncate: { route: "content", cutAfter: "half", times: 2 },
    drop: { route: "content", cutAfter: 0, times: 2 },
  } as const;
  const left = () =>
    t.emu.faults.rules.length +
    (t.emu.faults.respond as CountedHook | undefined ?? { left: 0 }).left;
  for (const fault of ["truncate", "drop", "shortBody"] as const) {
    const stage = () => {
      if (fault === "shortBody") t.emu.faults.respond = shortBody(2);
      else t.emu.faults.rules.push({ ...cuts[fault] });
    };
    stage();
    deepStrictEqual(
      await t.fs.catFile("data/big.bin", { start: 100, end: 200_100 }),
      BIG.slice(100, 200_100),
      fault,
    );
    equal(left(), 0, `${fault} was exercised`);
    stage();
    deepStrictEqual(
      await t.fs.catFile("data/big.bin", { start: 1 }),
      BIG.slice(1),
      `${fault} to the end`,
    );
    equal(left(), 0, `${fault} was exercised`);
  }
  t.emu.faults.respond = undefined;
  for (const fault of ["truncate", "drop"] as const) {
    t.emu.faults.rules.push({ ...cuts[fault] });
    deepStrictEqual(await t.fs.catFile("data/big.bin"), BIG, `${fault} whole`);
    equal(t.emu.faults.rules.length, 0, `${fault} was exercised`);
  }
});

Deno.test("answers that break off after a few bytes use up the retries; one that brings 64 KiB gives them back", async () => {
  await using t = await setup({}, {
    faults: { rules: [{ route: "content", cutAfter: 100, times: Infinity }] },
  });
  await t.fs.ls("");
  t.emu.resetCounters();
  await rejects(
    t.fs.catFile("data/big.bin", { start: 0, end: 10_000 }),
    (error: Error) =>
      error instanceof RepoConnectionError &&
      /; gave up after 6 attempts in a row, none of which ended where it said or brought 64 KiB$/
        .test(error.message),
  );
  equal(t.emu.counters.storeGets, 6, "the first answer and 5 retries");
  deepStrictEqual(
    await t.fs.catFile("7"),
    bytesOf(VARIED["7"]),
    "an answer of 100 bytes is whole",
  );

  t.emu.faults.rules = [{
    route: "content",
    cutAfter: PROGRESS_BYTES,
    times: Infinity,
  }];
  t.emu.resetCounters();
  deepStrictEqual(await t.fs.catFile("data/big.bin"), BIG);
  equal(
    t.emu.counters.storeGets,
    Math.ceil(BIG.length / PROGRESS_BYTES),
    "every answer broke off, and each brought enough to go on",
  );
});

Deno.test("a server answering 200 to a Range: only the needed bytes are kept", async () => {
  await using t = await setup({}, { faults: { respond: ignoreRange() } });
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: 2_000_000, end: 2_000_010 }),
    BIG.slice(2_000_000, 2_000_010),
  );
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: -5 }),
    BIG.slice(-5),
  );
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: 3_000_000 }),
    BIG.slice(3_000_000),
  );
  deepStrictEqual(
    await t.fs.catFile("climate.zarr/t/0.1", { start: 10, end: 20 }),
    bytesOf(VARIED["climate.zarr/t/0.1"]).slice(10, 20),
  );
});

Deno.test("a server that caps ranges: open-ended reads continue where it stopped", async () => {
  await using t = await setup({}, { faults: { respond: rangeCap(700_000) } });
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: 5 }),
    BIG.slice(5),
  );
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: -1_000_000 }),
    BIG.slice(-1_000_000),
  );
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: -1_000_000, end: -10 }),
    BIG.slice(-1_000_000, -10),
  );
  const file = await t.fs.open("data/big.bin");
  t.emu.faults.rules.push({ route: "content", cutAfter: "half" });
  deepStrictEqual(await collect(file.stream()), BIG);
  deepStrictEqual(
    await t.fs.catFile("data/big.bin", { start: 10, end: 800_000 }),
    BIG.slice(10, 800_000),
  );
});

Deno.test("expired URLs are re-resolved: before expiry, and after a 403 from the store", async () => {
  await using t = await setup({}, { urlLifetimeSeconds: 1 });
  deepStrictEqual(await t.fs.catFile("7"), bytesOf(VARIED["7"]));
  equal(t.emu.counters.heads, 1);
  await new Promise((r) => setTimeout(r, 2100));
  deepStrictEqual(await t.fs.catFile("7"), bytesOf(VARIED["7"]));
  equal(t.emu.counters.heads, 2, "re-resolved once");

  await using long = await setup({}, { urlLifetimeSeconds: 3600 });
  deepStrictEqual(
    await long.fs.catFile("7", { start: 0, end: 5 }),
    bytesOf(VARIED["7"]).slice(0, 5),
  );
  long.emu.expireUrls();
  deepStrictEqual(
    await long.fs.catFile("7", { start: 5, end: 9 }),
    bytesOf(VARIED["7"]).slice(5, 9),
  );
  deepStrictEqual(await long.fs.catFile("data/big.bin"), BIG);
  equal(long.emu.counters.heads, 3, "7 twice (after the 403), big.bin once");
  long.emu.expireUrls();
  deepStrictEqual(
    await long.fs.catFile("data/big.bin"),
    BIG,
    "a whole read re-resolves too",
  );
  equal(long.emu.counters.heads, 4);
  long.emu.faults.rules.push({ route: "store", status: 403, times: 10 });
  await rejects(
    long.fs.catFile("7"),
    (e: unknown) => e instanceof RepoHttpError && e.status === 403,
  );
  equal(
    long.emu.counters.failuresInjected,
    2,
    "one re-resolve, then the error",
  );
  long.emu.faults.rules.length = 0;
});

Deno.test("timeouts and aborts end a request; nothing hangs", async () => {
  await using t = await setup({
    timeoutMs: 150,
    retry: { retries: 1, baseDelayMs: 1 },
  });
  await t.fs.ls("");
  t.emu.faults.latencyMs = 2000;
  await rejects(t.fs.catFile("7"), (e: unknown) => {
    ok(e instanceof RepoConnectionError, String(e));
    ok(/nothing received for 150 ms/.test(e.message), e.message);
    ok(!e.message.includes("X-Amz"));
    return true;
  });
  const patient = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    token: TOKEN,
  });
  await patient.ls("");
  const controller = new AbortController();
  const read = patient.catFile("7", { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("user gave up")), 50);
  await rejects(read, /user gave up/);
  t.emu.faults.latencyMs = 0;
});

Deno.test("a protocol-breaking Content-Range is a RepoProtocolError", async () => {
  await using emu = await startEmulator({
    files: { a: patterned(100) },
    faults: { respond: shiftContentRange(10) },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry: FAST_RETRY });
  await rejects(fs.catFile("a", { start: 0, end: 10 }), (e: unknown) => {
    ok(e instanceof RepoProtocolError, String(e));
    ok(/bytes=0-9/.test(e.message) && /1-10\/100/.test(e.message), e.message);
    return true;
  });
  equal(emu.counters.storeGets, 1, "a protocol error is not retried");
});

Deno.test("open(): random access and a stream that resumes after a dropped connection", async () => {
  await using t = await setup();
  const file = await t.fs.open("data/big.bin");
  equal(file.path, "data/big.bin");
  equal(file.size, BIG.byteLength);
  deepStrictEqual(await file.read(10, 20), BIG.slice(10, 20));
  deepStrictEqual(await collect(file.stream()), BIG);
  t.emu.faults.rules.push({ route: "content", cutAfter: "half" });
  const before = t.emu.counters.storeGets;
  deepStrictEqual(
    await collect(file.stream()),
    BIG,
    "resumed where it stopped",
  );
  equal(t.emu.counters.storeGets - before, 2);
  const reader = file.stream().getReader();
  ok((await reader.read()).value!.byteLength > 0);
  await reader.cancel();
  await rejects(t.fs.open("data"), IsADirectoryError);
  const controller = new AbortController();
  const aborted = file.stream({ signal: controller.signal }).getReader();
  await aborted.read();
  controller.abort(new Error("stop streaming"));
  await rejects(
    (async () => {
      while (!(await aborted.read()).done);
    })(),
    /stop streaming/,
  );
  await rejects(
    file.read(0, 10, { signal: AbortSignal.abort(new Error("no")) }),
    /no/,
  );
});

Deno.test("the token goes to the repository only, and never into errors", async () => {
  await using t = await setup({}, { faults: { latencyMs: 0 } });
  const errors: string[] = [];
  t.emu.faults.rules.push({ route: "store", status: 404 });
  try {
    await t.fs.catFile("7");
  } catch (e) {
    errors.push(
      String(e),
      (e as Error).message,
      JSON.stringify(e),
      (e as Error).stack ?? "",
    );
  }
  equal(errors.length, 4);
  for (const text of errors) {
    ok(!text.includes(TOKEN), text);
    ok(!text.includes("X-Amz-Signature"), text);
  }
  deepStrictEqual(await t.fs.catFile("data/big.bin"), BIG);
  assertNoTokenLeak(t.emu);
});

/** The longest piece of `secret` that `text` contains. */
function longestPiece(text: string, secret: string): string {
  let longest = "";
  for (let i = 0; i < secret.length; i++) {
    for (let j = i + longest.length + 1; j <= secret.length; j++) {
      if (!text.includes(secret.slice(i, j))) break;
      longest = secret.slice(i, j);
    }
  }
  return longest;
}

Deno.test("a store's message quoting the pre-signed URL does not carry its credentials into the error", async () => {
  await using t = await setup({ retry: { retries: 1, baseDelayMs: 1 } }, {
    faults: {
      rules: [{
        route: "store",
        status: 502,
        times: 2,
        message: (request) => `Bad gateway for ${request.url}`,
      }],
    },
  });
  const error = await t.fs.catFile("7").catch((e) => e);
  ok(error instanceof RepoHttpError, String(error));
  ok(error.message.includes("Bad gateway for"), error.message);
  for (const text of [...shownForms(error), error.detail ?? ""]) {
    for (const name of ["Signature", "Credential"]) {
      ok(text.includes(`X-Amz-${name}=***`), `${name}: ${text}`);
    }
  }
});

Deno.test("no piece of the token in errors: a long Location holding it, fetch's own error quoting the URL, long error bodies", async () => {
  await using t = await setup({ retry: { retries: 1, baseDelayMs: 1 } });
  await t.fs.ls("");
  // The token across the point where a long URL would be cut for a message.
  const pad = "p".repeat(100 - TOKEN.length / 2 - t.emu.storeOrigin.length - 2);
  t.emu.faults.rules = [
    redirects(
      303,
      `${t.emu.storeOrigin}/${pad}/${TOKEN}/${"q".repeat(150)}?sig=1`,
    ),
  ];
  const held = await t.fs.catFile("7").catch((e) => e);
  ok(held instanceof RepoProtocolError, String(held));
  ok(held.message.includes("it carries the API token"), held.message);
  // fetch's error quotes the whole URL, query included.
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = closed.addr as Deno.NetAddr;
  closed.close();
  const signature = "c0ffee00deadbeef1234";
  t.emu.faults.rules = [
    redirects(303, `http://127.0.0.1:${port}/obj?X-Amz-Signature=${signature}`),
  ];
  const refused = await t.fs.catFile("data/big.bin").catch((e) => e);
  ok(refused instanceof RepoConnectionError, String(refused));
  ok(/connection refused/i.test(refused.message), "says what happened");
  ok(refused.cause instanceof Error, "the cause is kept, scrubbed");
  for (const error of [held, refused]) {
    for (const text of shownForms(error)) {
      ok(longestPiece(text, TOKEN).length <= 6, text);
      ok(!text.includes(signature), text);
    }
  }
  equal(t.emu.counters.storeGets, 0, "neither URL was asked");
  // An error body in plain text echoing the token past where it is cut.
  const body = `${"x".repeat(178)} Bad API key ${TOKEN} and more`;
  const detail = await errorDetail(new Response(body, { status: 401 }));
  ok(longestPiece(detail, TOKEN).length <= 6, detail);
});

Deno.test("a failed connection thrown as a plain Error with a code (Bun before 1.4) is a RepoConnectionError, retried", async () => {
  // The same requests; their failures worded as Bun 1.3 words them.
  const attempts: string[] = [];
  const bunLike: typeof fetch = async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      attempts.push(String(input));
      throw Object.assign(
        new Error("Unable to connect. Is the computer able to access the url?"),
        {
          code: "ConnectionRefused",
        },
      );
    }
  };
  await using t = await setup({
    fetch: bunLike,
    retry: { retries: 2, baseDelayMs: 1 },
  });
  await t.fs.ls("");
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = closed.addr as Deno.NetAddr;
  closed.close();
  t.emu.faults.rules = [redirects(303, `http://127.0.0.1:${port}/obj`)];
  const error = await t.fs.catFile("7").catch((e) => e);
  ok(error instanceof RepoConnectionError, String(error));
  ok(error.message.includes("Unable to connect"), error.message);
  equal(attempts.length, 3, "retried as a dropped connection is");
});

Deno.test("timeoutMs is an idle deadline: a body slower than it in total, never silent that long, arrives", async () => {
  const slow = patterned(16 * 1024, 11);
  await using t = await setup({ timeoutMs: 400 }, {
    files: { "slow.bin": slow },
  });
  await t.fs.ls("");
  t.emu.faults.rules.push({
    route: "content",
    trickle: { bytes: 1024, everyMs: 40 },
    times: Infinity,
  });
  const started = performance.now();
  deepStrictEqual(await t.fs.catFile("slow.bin"), slow, "catFile");
  ok(performance.now() - started > 400, "the whole read outlasted timeoutMs");
  const file = await t.fs.open("slow.bin");
  deepStrictEqual(await collect(file.stream()), slow, "stream()");
});

Deno.test("timeoutMs counts the server's silences, not a reader's pauses between reads", async () => {
  await using t = await setup({ timeoutMs: 2000 });
  await t.fs.ls("");
  t.emu.resetCounters();
  const reader = (await t.fs.open("data/big.bin")).stream().getReader();
  const got = new Uint8Array(BIG.length);
  let length = 0;
  for (let pauses = 0;; pauses++) {
    const { done, value } = await reader.read();
    if (done) break;
    got.set(value, length);
    length += value.length;
    // A reader busy elsewhere (a slow disk, a pipe), twice as long as timeoutMs.
    if (pauses < 2) await new Promise((ok) => setTimeout(ok, 4000));
  }
  equal(length, BIG.length);
  deepStrictEqual(got, BIG);
  equal(t.emu.counters.storeGets, 1, "one answer, never cut for the pauses");
});

Deno.test("timeoutMs is an idle deadline for the listing too: one slower than it in total, never silent that long, arrives", async () => {
  // Each piece is progress (1 KiB), and the listing (over 3 KiB) needs four.
  await using t = await setup({ timeoutMs: 1000 }, {
    faults: {
      rules: [{
        route: "listing",
        trickle: { bytes: 1024, everyMs: 400 },
        times: Infinity,
      }],
    },
  });
  const started = performance.now();
  equal((await t.fs.info("data/big.bin")).size, BIG.length);
  ok(performance.now() - started > 1000, "the listing outlasted timeoutMs");
});

Deno.test("a body that drips, less than 1 KiB in each timeoutMs, is a stall, not a read that never ends", async () => {
  // 16 bytes every 50 ms: never silent for timeoutMs, 8 KiB in 26 s at best.
  const drip = { bytes: 16, everyMs: 50 };
  await using t = await setup({
    timeoutMs: 1000,
    retry: { retries: 2, baseDelayMs: 1 },
  }, { files: { "drip.bin": patterned(8192, 20) } });
  await t.fs.ls("");
  t.emu.faults.rules.push({ route: "content", trickle: drip, times: Infinity });
  await rejects(t.fs.catFile("drip.bin"), (e: unknown) => {
    ok(e instanceof RepoConnectionError, String(e));
    ok(/only \d+ bytes received in 1000 ms/.test(e.message), e.message);
    ok(e.message.includes("gave up after 3 attempts"), e.message);
    return true;
  });
  await using emu = await startEmulator({
    files: VARIED,
    faults: { rules: [{ route: "listing", trickle: drip, times: Infinity }] },
  });
  const listing = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    timeoutMs: 1000,
    retry: { retries: 1, baseDelayMs: 1 },
  });
  await rejects(listing.ls(""), (e: unknown) => {
    ok(e instanceof RepoConnectionError, String(e));
    ok(/only \d+ bytes received in 1000 ms/.test(e.message), e.message);
    return true;
  });
});

Deno.test("a body that stalls halfway is resumed from its last byte after timeoutMs", async () => {
  await using t = await setup({ timeoutMs: 300 });
  await t.fs.ls("");
  const file = await t.fs.open("data/big.bin");
  for (let round = 0; round < 4; round++) {
    t.emu.resetCounters();
    t.emu.faults.rules.push({ route: "content", stallAfter: "half" });
    const whole = await bounded(t.fs.catFile("data/big.bin"), "catFile");
    deepStrictEqual(whole, BIG, "catFile");
    t.emu.faults.rules.push({ route: "content", stallAfter: "half" });
    const streamed = await bounded(collect(file.stream()), "stream()");
    deepStrictEqual(streamed, BIG, "stream()");
    ok(t.emu.counters.storeGets >= 4, "each read was resumed after a stall");
    ok(
      t.emu.counters.storeBytes < 3 * BIG.byteLength,
      "resumed from the last byte, not from the start",
    );
  }
});

Deno.test("an aborted stream errors at once, whatever it has buffered", async () => {
  await using t = await setup();
  const file = await t.fs.open("data/big.bin");
  for (let i = 0; i < 20; i++) {
    const controller = new AbortController();
    const reader = file.stream({ signal: controller.signal }).getReader();
    ok((await reader.read()).value!.byteLength > 0);
    controller.abort(new Error(`stop ${i}`));
    await rejects(reader.read(), new RegExp(`stop ${i}`));
  }
});

Deno.test("a 200 shorter or longer than the listed file is an error, never data", async () => {
  await using t = await setup();
  await t.fs.ls("");
  t.emu.faults.rules.push(portalPage(100));
  for (
    const read of [
      () => t.fs.catFile("data/big.bin"),
      () => t.fs.catFile("data/big.bin", { start: 1000, end: 2_001_000 }),
      () => t.fs.catFile("data/big.bin", { start: -100 }),
      async () => collect((await t.fs.open("data/big.bin")).stream()),
    ]
  ) {
    await rejects(read(), (e: unknown) => {
      ok(e instanceof RepoProtocolError, String(e));
      ok(/18 bytes, but the listing says 3145745/.test(e.message), e.message);
      return true;
    });
  }
  deepStrictEqual(
    await t.fs.catFile("data/empty.bin"),
    new Uint8Array(0),
    "a file listed empty needs no request",
  );
  equal(t.emu.counters.storeGets, 4, "a protocol error is not retried");
});

Deno.test("a web page for a file whose listed size cannot tell it apart (none listed, or tabular) is an error, and leaves no size behind", async () => {
  await using t = await setup();
  await t.fs.ls("");
  const nosize = bytesOf(VARIED["data/nosize.bin"]);
  const survey = bytesOf(VARIED["tables/survey.tab"]);
  for (
    const [read, listed] of [
      [() => t.fs.catFile("data/nosize.bin"), "application/octet-stream"],
      [
        () => t.fs.catFile("data/nosize.bin", { start: 0, end: 8 }),
        "application/octet-stream",
      ],
      [() => t.fs.catFile("tables/survey.tab"), "text/tab-separated-values"],
    ] as const
  ) {
    t.emu.faults.rules.push(portalPage());
    await rejects(read(), (e: unknown) => {
      ok(e instanceof RepoProtocolError, String(e));
      ok(
        e.message.includes(
          `the answer is a web page (Content-Type: text/html), not the file, which is listed as ${listed}`,
        ),
        e.message,
      );
      return true;
    });
    equal(t.emu.faults.rules.length, 0, "the page was sent");
  }
  deepStrictEqual(
    await t.fs.catFile("data/nosize.bin", { start: -100 }),
    nosize.slice(-100),
  );
  deepStrictEqual(await t.fs.catFile("data/nosize.bin"), nosize);
  deepStrictEqual(await t.fs.catFile("tables/survey.tab"), survey);
});

Deno.test("a 200 of unsaid length is read to its end and checked: a page as long as the bytes asked is an error, never data", async () => {
  const ten = patterned(10, 4);
  const big = patterned(5000, 5);
  await using t = await setup({}, {
    files: { "ten.bin": ten, "big.bin": big },
    faults: { rules: [UNSAID_LENGTH] },
  });
  await t.fs.ls("");
  deepStrictEqual(await t.fs.catFile("ten.bin"), ten, "an honest answer");
  deepStrictEqual(
    await t.fs.catFile("big.bin", { start: 100, end: 300 }),
    big.subarray(100, 300),
  );
  t.emu.faults.respond = ignoreRange();
  deepStrictEqual(
    await t.fs.catFile("big.bin", { start: 100, end: 300 }),
    big.subarray(100, 300),
    "the whole file for a range, of unsaid length: read to its end",
  );
  t.emu.faults.respond = undefined;
  const page = portalPage(100); // 18 bytes of HTML, of unsaid length
  t.emu.faults.rules = [{
    ...page,
    headers: { ...page.headers, "content-length": null },
  }];
  for (
    const [read, listed] of [
      [() => t.fs.catFile("ten.bin"), 10],
      [() => t.fs.catFile("big.bin", { start: 0, end: 10 }), 5000],
      [async () => collect((await t.fs.open("ten.bin")).stream()), 10],
    ] as const
  ) {
    await rejects(read(), (e: unknown) => {
      ok(e instanceof RepoProtocolError, String(e));
      ok(
        e.message.includes(`18 bytes, but the listing says ${listed}`),
        e.message,
      );
      return true;
    });
  }
});

Deno.test("an encoded answer is an error, never the compressed bytes, whatever its label and length", async () => {
  const big = patterned(5000, 6);
  await using t = await setup({}, { files: { "big.bin": big } });
  await t.fs.ls("");
  for (const unsaidLength of [false, true]) {
    // Deno decodes `gzip` unless `identity` was asked, and `x-gzip` never.
    for (const label of ["gzip", "x-gzip", "GZIP", "deflate"]) {
      const kind = `${label}, length ${unsaidLength ? "unsaid" : "said"}`;
      t.emu.faults.rules = unsaidLength ? [UNSAID_LENGTH] : [];
      for (const range of [{ start: 0, end: 100 }, undefined]) {
        const gzip = t.emu.faults.respond = gzipBody(1, label);
        await rejects(t.fs.catFile("big.bin", range), (e: unknown) => {
          ok(e instanceof RepoProtocolError, `${kind}: ${e}`);
          ok(
            e.message.includes(
              `unencoded but the answer is encoded (Content-Encoding: ${label})`,
            ),
            `${kind}: ${e.message}`,
          );
          return true;
        });
        equal(gzip.left, 0, `${kind}: the gzip answer was sent`);
      }
    }
  }
  t.emu.faults.respond = undefined;
  t.emu.faults.rules = [];
  deepStrictEqual(await t.fs.catFile("big.bin"), big, "unencoded, read");
});

Deno.test("a file replaced while it is read is an error, never bytes spliced from two versions", async () => {
  const before = patterned(5000, 13);
  for (
    const [after, said] of [
      // The resume names the first answer's ETag in If-Match: a 412.
      [patterned(5000, 14), /changed during the read \(412 Precondition/],
      [patterned(3000, 14), /changed during the read \(412 Precondition/],
    ] as const
  ) {
    await using t = await setup({}, {
      files: { "f.bin": { content: before, listedSize: null } },
      // so the read goes on in a second request
      faults: { rules: [{ route: "content", cutAfter: "half" }] },
    });
    const reader = (await t.fs.open("f.bin")).stream().getReader();
    const first = await reader.read();
    deepStrictEqual(first.value, before.subarray(0, first.value!.length));
    t.emu.replaceContent("f.bin", after);
    const rest = (async () => {
      for (;;) if ((await reader.read()).done) return;
    })();
    await rejects(rest, (e: unknown) => {
      ok(e instanceof RepoChangedError, String(e));
      ok(said.test(e.message), e.message);
      return true;
    });
  }
});

/** A file the listing gives no exact size for: none, or a tabular one's lower bound. */
const LOOSELY_LISTED = [
  { kind: "no listed size", listedSize: null, tabular: false },
  { kind: "tabular", listedSize: 1000, tabular: true },
] as const;

Deno.test("a size an answer gave binds the rest of the read, when later answers and the listing say none", async () => {
  const before = patterned(5000, 15);
  for (const { kind, listedSize, tabular } of LOOSELY_LISTED) {
    for (
      const [after, said, Class] of [
        // Resumed at byte 2500 with a 200 of unsaid length: the whole new
        // file, which ends short twice at the same byte.
        [
          patterned(3000, 16),
          /changed during the read \(5000 bytes, then 3000\)/,
          RepoChangedError,
        ],
        // Resumed at byte 2500 with a 416 that names no size.
        [
          patterned(2000, 16),
          /bytes=2500- of a file of 5000 bytes, but the answer is 416/,
          RepoProtocolError,
        ],
      ] as const
    ) {
      await using t = await setup({}, {
        files: { "f.bin": { content: before, listedSize, tabular } },
        // the first answer, 5000 bytes long, breaks off
        faults: { rules: [{ route: "content", cutAfter: "half" }] },
      });
      const reader = (await t.fs.open("f.bin")).stream().getReader();
      const first = await reader.read();
      deepStrictEqual(first.value, before.subarray(0, first.value!.length));
      t.emu.replaceContent("f.bin", after);
      t.emu.faults.rules = [UNSAID_LENGTH];
      t.emu.faults.respond = unsaidTotal({ wholeFile: after.length > 2500 });
      const rest = (async () => {
        for (;;) if ((await reader.read()).done) return;
      })();
      await rejects(rest, (e: unknown) => {
        ok(e instanceof Class, `${kind}: ${e}`);
        ok(said.test(e.message), `${kind}: ${e.message}`);
        return true;
      });
    }
  }
});

Deno.test("a range of a tabular file served whole stops reading past the listed size", async () => {
  const content = patterned(20_000, 17);
  // Were the stalled rest waited for, the idle deadline would end the read.
  await using t = await setup({ timeoutMs: 10_000 }, {
    files: { "t.tab": { content, listedSize: 4000, tabular: true } },
    // 200 of unsaid length whatever the range; 10,000 bytes, then silence.
    faults: {
      respond: ignoreRange(),
      rules: [{ ...UNSAID_LENGTH, stallAfter: "half", times: 1 }],
    },
  });
  deepStrictEqual(
    await t.fs.catFile("t.tab", { start: 0, end: 10 }),
    content.subarray(0, 10),
    "the 10 bytes, without waiting on the stalled rest of the body",
  );
  equal(t.emu.faults.rules.length, 0, "the answer was the stalling one");
});

Deno.test("an encoded answer to a range is an error whatever the listing says of the size", async () => {
  const content = patterned(5000, 18);
  for (const { kind, listedSize, tabular } of LOOSELY_LISTED) {
    await using t = await setup({}, {
      files: { "f.bin": { content, listedSize, tabular } },
    });
    const gzip = t.emu.faults.respond = gzipBody(1);
    await rejects(t.fs.catFile("f.bin", { start: 100, end: 200 }), (e) => {
      ok(e instanceof RepoProtocolError, `${kind}: ${e}`);
      ok(
        /asked bytes=100-199 unencoded but the answer is encoded \(Content-Encoding: gzip\)/
          .test(e.message),
        `${kind}: ${e.message}`,
      );
      return true;
    });
    equal(gzip.left, 0, `${kind}: the gzip answer was sent`);
  }
});

Deno.test("messages cut a very long path to one short line", async () => {
  await using t = await setup();
  const path = `deep/${"x".repeat(5000)}`;
  await rejects(t.fs.catFile(path), (e: unknown) => {
    ok(e instanceof NotFoundError);
    ok(e.message.length < 300, `${e.message.length} characters`);
    equal(e.path, path, "the path itself stays whole");
    return true;
  });
});

Deno.test("fetch is called as a plain function, as a browser's fetch must be", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  /** Like a browser's fetch: called as a method of anything else, it throws. */
  function browserLikeFetch(
    this: unknown,
    input: RequestInfo | URL,
    init?: RequestInit,
  ): Promise<Response> {
    if (this !== undefined && this !== globalThis) {
      return Promise.reject(new TypeError("Illegal invocation"));
    }
    return fetch(input, init);
  }
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    fetch: browserLikeFetch,
  });
  equal(new TextDecoder().decode(await fs.catFile("a.txt")), "hello");
  equal(
    (await listCollection({
      host: emu.host,
      alias: emu.alias,
      fetch: browserLikeFetch,
    })).length,
    1,
  );
});

Deno.test("the content reader reads ranges and streams", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello world" } });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const urls = new DownloadUrls(
    ({ id, format }, _stale, signal) => api.head(id, signal, format),
    3,
  );
  const { transport, retry, base: repository } = api;
  const reader = new ContentReader(urls, {
    transport,
    retry,
    repository,
    getConcurrency: 64,
  });
  const file = { id: emu.fileId("a.txt"), size: 11 };
  strictEqual(new TextDecoder().decode(await reader.read(file, 0, 5)), "hello");
  strictEqual(new TextDecoder().decode(await reader.read(file, -5)), "world");
  strictEqual(
    await new Response(reader.stream(file, { start: 6 })).text(),
    "world",
  );
});

Deno.test("collect joins a stream's chunks", async () => {
  const bytes = await collect(new Response("abc").body!);
  equal(bytes.byteLength, 3);
});

Deno.test("concat joins chunks", () => {
  deepStrictEqual(
    concat([new Uint8Array([1]), new Uint8Array([2, 3])]),
    new Uint8Array([1, 2, 3]),
  );
});

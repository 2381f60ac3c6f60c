import {
  deepStrictEqual,
  equal,
  notStrictEqual,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import { join } from "node:path";
import { type EmulatorOptions, startEmulator } from "../emulator.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { urlMessageCounts } from "../src/pool/pool.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { type CliRun, runCli } from "./support.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import type { SharedUrls } from "../src/base/types.ts";
import {
  cachedUrl,
  cacheKey,
  DownloadUrls,
  isStale,
  type StoredUrl,
  type UrlLookup,
  type UrlStore,
} from "../src/urls/download_urls.ts";
import { UrlCacheFile } from "../src/urls/url_cache_file.ts";

const CACHE_MODULE = new URL("../src/urls/url_cache_file.ts", import.meta.url)
  .href;
const FORMAT = "repo-fs-url-cache/1";
const decoder = new TextDecoder();

interface CacheFile {
  format: string;
  urls: { id: number; url: string; direct: boolean; resolvedAt: number }[];
}

/** An emulator, a temp dir, and `cli(...)` with the dataset and `--url-cache-dir` filled in. */
async function setup(options: EmulatorOptions) {
  const emu = await startEmulator(options);
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  const cacheDir = join(tmp, "cache", "urls");
  return {
    emu,
    tmp,
    cacheDir,
    run: (args: string[], env?: Record<string, string>) =>
      runCli([
        "--host",
        emu.host,
        "--pid",
        emu.pid,
        "--url-cache-dir",
        cacheDir,
        ...args,
      ], env),
    /** The one cache file in the directory. */
    async cacheFile(): Promise<string> {
      const names = [];
      for await (const entry of Deno.readDir(cacheDir)) names.push(entry.name);
      equal(names.length, 1, `files in the cache dir: ${names}`);
      return join(cacheDir, names[0]);
    },
    async [Symbol.asyncDispose]() {
      await emu.close();
      await Deno.remove(tmp, { recursive: true });
    },
  };
}

function succeeded(run: CliRun, stdout?: string): void {
  equal(run.code, 0, `exit ${run.code}: ${run.stderr}`);
  if (stdout !== undefined) equal(run.stdout, stdout);
}

async function modeOf(path: string): Promise<number> {
  return (await Deno.stat(path)).mode! & 0o777;
}

/** A URL's `X-Amz-Date` set to `at`: what the store signed then would carry. */
function signedAt(url: string, at: number): string {
  const changed = new URL(url);
  const stamp = new Date(at).toISOString().replace(/[-:]|\.\d+/g, "");
  changed.searchParams.set("X-Amz-Date", stamp);
  return changed.href;
}

Deno.test("a second process with the same urlCacheDir sends no HEAD for a URL the first resolved", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  await using t = await setup({
    token,
    files: {
      "open.txt": "open data",
      "mine.txt": {
        content: "granted",
        restricted: true,
        grantedToTokenHolder: true,
      },
    },
    versions: { "1.0": { "open.txt": "open data, 1.0" } },
  });
  const env = { REPO_API_TOKEN: token };
  succeeded(await t.run(["cat", "open.txt"], env), "open data");
  succeeded(await t.run(["cat", "mine.txt"], env), "granted");
  equal(t.emu.counters.heads, 2);

  succeeded(await t.run(["cat", "open.txt"], env), "open data");
  succeeded(await t.run(["cat", "mine.txt"], env), "granted");
  equal(t.emu.counters.heads, 2); // both URLs came from the file
  equal(t.emu.counters.storeGets, 4);

  const path = await t.cacheFile();
  equal(await modeOf(path), 0o600);
  equal(await modeOf(t.cacheDir), 0o700);
  equal(await modeOf(join(t.tmp, "cache")), 0o700);
  const text = await Deno.readTextFile(path);
  ok(!text.includes(token), "the token is not in the cache file");
  const file: CacheFile = JSON.parse(text);
  equal(file.format, FORMAT);
  deepStrictEqual(
    file.urls.map(({ id }) => id).sort(),
    [t.emu.fileId("mine.txt"), t.emu.fileId("open.txt")].sort(),
  );

  succeeded(
    await t.run(["--dataset-version", "1.0", "cat", "open.txt"], env),
    "open data, 1.0",
  );
  let files = 0;
  for await (const _ of Deno.readDir(t.cacheDir)) files++;
  equal(files, 2); // one file per version
});

Deno.test("a pool on a filled urlCacheDir gives its workers the stored URLs with the dataset: no URL asks, no HEADs", async () => {
  const data = ramp(Float32Array, 256 * 4);
  await using t = await setup({
    files: await buildZarrStore(
      [{ path: "t", data, shape: [256, 4], chunks: [1, 4] }],
      { format: 2 },
    ),
  });
  const out = join(t.tmp, "out");
  succeeded(await t.run(["get", "**", "--out", out])); // resolves every URL
  const heads = t.emu.counters.heads;
  ok(heads > 256, `${heads} HEADs: every chunk and the metadata`);

  const fs = new RepoFs({
    host: t.emu.host,
    pid: t.emu.pid,
    urlCacheDir: t.cacheDir,
  });
  await using pool = new RepoFsPool(fs, { workers: 2 });
  deepStrictEqual((await getArray(pool, "", "t")).data, data);
  equal(t.emu.counters.heads, heads, "every URL came from the file");
  deepStrictEqual(urlMessageCounts(pool), {
    askMessages: 0,
    asks: 0,
    answerMessages: 0,
  });
});

Deno.test("two processes writing the cache at once leave it readable, with every entry each added", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const scope = {
    repository: "https://repo.example.org/api",
    pid: "doi:10.5072/FK2/ABC",
    version: ":latest",
  };
  const writer = (first: number) => `
    const { UrlCacheFile } = await import(${JSON.stringify(CACHE_MODULE)});
    const warn = (msg) => console.error(msg);
    const cache = new UrlCacheFile(${JSON.stringify(dir)}, ${
    JSON.stringify(scope)
  }, { debug() {}, info() {}, warn });
    await cache.read();
    const date = new Date().toISOString().replace(/[-:]|\\.\\d+/g, "");
    for (let round = 0; round < 25; round++) {
      for (let i = 0; i < 20; i++) {
        const id = ${first} + round * 20 + i;
        const url = "https://s3.example/b/" + id + "?X-Amz-Date=" + date + "&X-Amz-Expires=3600";
        cache.add({ file: { id }, url: { url, direct: false, resolvedAt: Date.now(), expiresAt: Date.now() + 3_600_000 } });
      }
      cache.flush();
    }`;
  const writers = [0, 10_000].map((first) =>
    new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-prompt", writer(first)],
      env: { NO_COLOR: "1" },
      stdin: "null",
      stdout: "null",
    }).output()
  );
  let done = false;
  const all = Promise.all(writers).finally(() => (done = true));
  let reads = 0;
  while (!done) {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.name.endsWith(".json")) continue;
      const text = await Deno.readTextFile(join(dir, entry.name));
      equal((JSON.parse(text) as CacheFile).format, FORMAT); // never a torn file
      reads++;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  for (const { code, stderr } of await all) {
    equal(code, 0, decoder.decode(stderr));
    equal(decoder.decode(stderr), "", "no writer met a file it could not use");
  }
  ok(reads > 0);

  const { UrlCacheFile } = await import(CACHE_MODULE);
  const warnings: string[] = [];
  const cache = new UrlCacheFile(dir, scope, {
    debug() {},
    info() {},
    warn: (msg: string) => warnings.push(msg),
  });
  const entries = await cache.read();
  deepStrictEqual(warnings, []);
  const ids = entries.map((entry: { file: { id: number } }) => entry.file.id);
  const expected = [0, 10_000].flatMap((first) =>
    Array.from({ length: 500 }, (_, i) => first + i)
  );
  deepStrictEqual(ids.sort((a: number, b: number) => a - b), expected); // none lost
  const names = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  equal(names.length, 1, `no temporary file left: ${names}`);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a lock left by a writer that is gone, or an old one, is broken: the write happens and the lock goes", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const scope = {
    repository: "https://repo.example.org/api",
    pid: "doi:10.5072/FK2/LOCK",
    version: ":latest",
  };
  const { UrlCacheFile } = await import(CACHE_MODULE);
  const date = new Date().toISOString().replace(/[-:]|\.\d+/g, "");
  const warnings: string[] = [];
  const logger = {
    debug() {},
    info() {},
    warn: (m: string) => warnings.push(m),
  };
  // A process that has ended: its pid runs no more.
  const ended = new Deno.Command(Deno.execPath(), {
    args: ["eval", "0"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  await ended.status;
  const hostname = Deno.hostname();
  const holders = [
    { pid: ended.pid, host: hostname, age: 0 },
    { pid: Deno.pid, host: "elsewhere", age: 60 }, // alive, but 60 s old
  ];
  for (const [index, { pid, host, age }] of holders.entries()) {
    const cache = new UrlCacheFile(dir, scope, logger);
    await cache.read();
    const lock = `${cache.path}.lock`;
    await Deno.writeTextFile(lock, JSON.stringify({ pid, host }));
    const then = new Date(Date.now() - age * 1000);
    await Deno.utime(lock, then, then);
    const id = index + 1;
    const url =
      `https://s3.example/b/${id}?X-Amz-Date=${date}&X-Amz-Expires=3600`;
    cache.add({
      file: { id },
      url: {
        url,
        direct: false,
        resolvedAt: Date.now(),
        expiresAt: Date.now() + 3_600_000,
      },
    });
    cache.flush();
    const file: CacheFile = JSON.parse(await Deno.readTextFile(cache.path));
    deepStrictEqual(
      file.urls.map((entry) => entry.id).sort(),
      holders.slice(0, id).map((_, i) => i + 1),
    );
    deepStrictEqual([...Deno.readDirSync(dir)].map((e) => e.name), [
      cache.path.split("/").at(-1),
    ]);
  }
  deepStrictEqual(warnings, []);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("an expired cache entry is never used, nor one near expiry", async () => {
  await using t = await setup({
    files: { "a.txt": "aaa", "b.txt": "bbb", "c.txt": "ccc" },
  });
  const ids = ["a.txt", "b.txt", "c.txt"].map((name) => t.emu.fileId(name));
  succeeded(await t.run(["get", "**", "--out", join(t.tmp, "first")]));
  equal(t.emu.counters.heads, 3);

  const path = await t.cacheFile();
  const file: CacheFile = JSON.parse(await Deno.readTextFile(path));
  const now = Date.now();
  const hour = 3_600_000;
  const at = (id: number) => file.urls.find((entry) => entry.id === id)!;
  // a.txt: signed two hours ago, ran out an hour ago
  Object.assign(at(ids[0]), {
    url: signedAt(at(ids[0]).url, now - 2 * hour),
    resolvedAt: now - 2 * hour,
  });
  // b.txt: signed 10 s short of an hour ago; 10 s left is inside the 30 s margin
  Object.assign(at(ids[1]), {
    url: signedAt(at(ids[1]).url, now - hour + 10_000),
    resolvedAt: now - hour + 10_000,
  });
  await Deno.writeTextFile(path, JSON.stringify(file));
  t.emu.resetCounters();

  succeeded(await t.run(["get", "**", "--out", join(t.tmp, "second")]));
  equal(t.emu.counters.heads, 2); // a.txt and b.txt resolved again, c.txt from the file
  equal(t.emu.counters.storeGets, 3); // no request went to an expired URL
  for (const name of ["a.txt", "b.txt", "c.txt"]) {
    equal(
      await Deno.readTextFile(join(t.tmp, "second", name)),
      name[0].repeat(3),
    );
  }
  const rewritten: CacheFile = JSON.parse(await Deno.readTextFile(path));
  ok(
    rewritten.urls.every(({ resolvedAt }) => resolvedAt > now - hour / 2),
    "the expired entries were replaced",
  );
});

Deno.test("an entry that says a store URL is the repository's own does not take the token there", async () => {
  const token = `tok-${crypto.randomUUID()}`;
  await using t = await setup({ token, files: { "a.txt": "hello" } });
  const env = { REPO_API_TOKEN: token };
  succeeded(await t.run(["cat", "a.txt"], env), "hello");
  const path = await t.cacheFile();
  const file: CacheFile = JSON.parse(await Deno.readTextFile(path));
  ok(file.urls[0].url.startsWith(t.emu.storeOrigin), file.urls[0].url);
  file.urls[0].direct = true; // as the repository's access endpoint is
  await Deno.writeTextFile(path, JSON.stringify(file));
  t.emu.resetCounters();
  succeeded(await t.run(["cat", "a.txt"], env), "hello");
  equal(t.emu.counters.heads, 0, "the entry was used");
  equal(t.emu.counters.storeGets, 1);
  equal(t.emu.counters.storeRequestsWithToken, 0);
});

Deno.test("a corrupt cache file is ignored with a warning, not fatal", async () => {
  await using t = await setup({ files: { "a.txt": "hello" } });
  succeeded(await t.run(["cat", "a.txt"]), "hello");
  const path = await t.cacheFile();
  const valid = await Deno.readTextFile(path);
  const cases: [string, () => Promise<void>, string][] = [
    [
      "not JSON",
      () => Deno.writeTextFile(path, '{"format":'),
      "it is not JSON",
    ],
    [
      "another format",
      () => Deno.writeTextFile(path, '{"format":"something-else/2"}'),
      'its format is "something-else/2"',
    ],
    [
      "a malformed entry",
      () =>
        Deno.writeTextFile(
          path,
          valid.replace(/"resolvedAt":\d+/, '"resolvedAt":"soon"'),
        ),
      "its entry 0 is malformed",
    ],
    [
      "open to others",
      async () => {
        await Deno.writeTextFile(path, valid);
        await Deno.chmod(path, 0o644);
      },
      "its mode is 644, so others may read or change it",
    ],
    [
      "a FIFO, which a blocking open would wait on for ever",
      async () => {
        await Deno.remove(path);
        const made = await new Deno.Command("mkfifo", {
          args: ["-m", "600", path],
        }).output();
        ok(made.success, "mkfifo");
      },
      "it is not a regular file",
    ],
  ];
  let heads = t.emu.counters.heads;
  for (const [what, spoil, reason] of cases) {
    await spoil();
    const result = await t.run(["--verbose", "cat", "a.txt"]);
    succeeded(result, "hello");
    ok(
      result.stderr.includes(
        `warn: Ignoring the URL cache file ${path}: ${reason}`,
      ),
      `${what}: ${result.stderr}`,
    );
    equal(t.emu.counters.heads, ++heads, what);
    equal(
      (JSON.parse(await Deno.readTextFile(path)) as CacheFile).format,
      FORMAT,
    );
    equal(await modeOf(path), 0o600, `${what}: rewritten private`);
  }
});

Deno.test("urlCacheDir is checked at construction, with no I/O", async () => {
  const dataset = { host: "repo.example.org", pid: "doi:10.5072/FK2/ABC" };
  throws(() => new RepoFs({ ...dataset, urlCacheDir: "" }), {
    name: "TypeError",
    message: 'urlCacheDir must be a non-empty string, got ""',
  });
  new RepoFs({ ...dataset, urlCacheDir: "/nonexistent/never/created" });

  const asBrowser = `
    const { RepoFs } = await import(${
    JSON.stringify(new URL("../mod.ts", import.meta.url).href)
  });
    delete globalThis.Deno; // no file system, as in a browser
    Object.defineProperty(globalThis, "process", { value: undefined });
    try {
      new RepoFs({ ...${JSON.stringify(dataset)}, urlCacheDir: "cache" });
    } catch (error) {
      console.log(\`\${error.name}: \${error.message}\`);
    }`;
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-prompt", asBrowser],
    env: { NO_COLOR: "1" },
    stdin: "null",
  }).output();
  equal(
    decoder.decode(stdout),
    "TypeError: urlCacheDir needs a file system (Deno, Node or Bun); this runtime has none\n",
  );
});

Deno.test("cachedUrl gives the id, URL and directness", () => {
  const url = {
    url: "https://s3.example/b/k",
    direct: false,
    resolvedAt: 0,
    expiresAt: Infinity,
  };
  deepStrictEqual(cachedUrl({ id: 7 }, url), [
    7,
    "https://s3.example/b/k",
    false,
  ]);
});

Deno.test("a URL lookup HEADs the repository for a signed store URL", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const lookup: UrlLookup = ({ id, format }, _stale, signal) =>
    api.head(id, signal, format);
  const answer = await lookup(
    { id: emu.fileId("a.txt") },
    undefined,
    new AbortController().signal,
  );
  strictEqual(answer.direct, false);
  ok(answer.url.startsWith(emu.storeOrigin)); // a signed object-store URL
});

Deno.test("resolved URLs are added to the URL store", async () => {
  const kept: StoredUrl[] = [];
  const store: UrlStore = {
    read: () => Promise.resolve([]),
    add: (entry) => void kept.push(entry),
    forget() {},
  };
  const urls = new DownloadUrls(
    ({ id }) =>
      Promise.resolve({ url: `https://s3.example/${id}`, direct: false }),
    3,
    undefined,
    store,
  );
  await urls.resolve({ id: 7 });
  strictEqual(kept[0].url.url, "https://s3.example/7");
});

Deno.test("shared URLs run the HEAD they are given, once", async () => {
  let heads = 0;
  const fleet: SharedUrls = {
    resolve: (_file, _stale, signal, head) => head(signal),
  };
  const urls = new DownloadUrls(
    (
      { id },
    ) => (heads++,
      Promise.resolve({ url: `https://s3.example/${id}`, direct: false })),
    3,
    undefined,
    undefined,
    fleet,
  );
  strictEqual((await urls.resolve({ id: 7 })).url, "https://s3.example/7");
  strictEqual(heads, 1);
});

Deno.test("one HEAD for two asks of one file, none once cached", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const urls = new DownloadUrls(
    ({ id, format }, _stale, signal) => api.head(id, signal, format),
    3,
  );
  const id = emu.fileId("a.txt");
  const [first, second] = await Promise.all([
    urls.resolve({ id }),
    urls.resolve({ id }),
  ]);
  strictEqual(first.url, second.url);
  strictEqual(emu.counters.heads, 1); // one HEAD for both asks
  strictEqual((await urls.resolve({ id })).url, first.url); // and none once cached
  strictEqual(emu.counters.heads, 1);
});

Deno.test("the cache key tells formats apart", () => {
  notStrictEqual(cacheKey({ id: 7 }), cacheKey({ id: 7, format: "original" }));
});

Deno.test("a URL is stale in the last tenth of its life", () => {
  const hour = 3_600_000;
  const now = Date.now();
  strictEqual(
    isStale({
      url: "u",
      direct: false,
      resolvedAt: now,
      expiresAt: now + hour,
    }),
    false,
  );
  // 10 s left of an hour: stale, though 10 s would be a long life for a URL resolved just now
  strictEqual(
    isStale({
      url: "u",
      direct: false,
      resolvedAt: now - hour + 10_000,
      expiresAt: now + 10_000,
    }),
    true,
  );
});

Deno.test("the URL cache file keeps entries of one scope", async () => {
  const dir = await Deno.makeTempDir();
  const scope = {
    repository: "https://repo.example.org/api",
    pid: "doi:10.5072/FK2/ABC",
    version: ":latest",
  };
  const signed = (at: Date, seconds: number) =>
    `https://s3.example/b/7?X-Amz-Date=${
      at.toISOString().replace(/[-:]|\.\d+/g, "")
    }&X-Amz-Expires=${seconds}`;
  const now = Date.now();

  const first = new UrlCacheFile(dir, scope);
  deepStrictEqual(await first.read(), []); // no file yet
  first.add({
    file: { id: 7 },
    url: {
      url: signed(new Date(now), 3600),
      direct: false,
      resolvedAt: now,
      expiresAt: now + 3_600_000,
    },
  });
  const old = now - 3_590_000; // signed 10 s short of an hour ago: near expiry
  first.add({
    file: { id: 8 },
    url: {
      url: signed(new Date(old), 3600),
      direct: false,
      resolvedAt: old,
      expiresAt: old + 3_600_000,
    },
  });
  first.flush();
  strictEqual((await Deno.stat(first.path!)).mode! & 0o777, 0o600);

  const later = await new UrlCacheFile(dir, scope).read(); // as the next process sees it
  deepStrictEqual(later.map(({ file }) => file.id), [7]);
  await Deno.remove(dir, { recursive: true });
});

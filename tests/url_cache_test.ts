import {
  deepStrictEqual,
  equal,
  notStrictEqual,
  ok,
  strictEqual,
  throws,
} from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
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

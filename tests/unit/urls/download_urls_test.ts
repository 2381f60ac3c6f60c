// Behaviour of src/urls/download_urls.ts, moved here from the examples on its internal symbols.
import {
  deepStrictEqual,
  notStrictEqual,
  ok,
  strictEqual,
} from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoApi } from "../../../src/api/repo_api.ts";
import type { SharedUrls } from "../../../src/base/types.ts";
import {
  cachedUrl,
  cacheKey,
  DownloadUrls,
  isStale,
  type StoredUrl,
  type UrlLookup,
  type UrlStore,
} from "../../../src/urls/download_urls.ts";

Deno.test("cachedUrl: The CachedUrl form of `file`'s resolved `url`", () => {
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

Deno.test("UrlLookup: Where a DownloadUrls cache gets a URL it lacks: a HEAD to the repository, or (in a pool's…", async () => {
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

Deno.test("UrlStore: Where resolved URLs outlive the process: DownloadUrls reads it once, before its first lookup,…", async () => {
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

Deno.test("SharedUrls: URLs shared with other processes (the `coordinator` option): a fleet-wide cache and HEAD budget", async () => {
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

Deno.test("DownloadUrls: The URL cache: one lookup per file id and format, at most `concurrency` lookups in flight", async () => {
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

Deno.test("cacheKey: The one key of a file's content URL: its id, and the format read", () => {
  notStrictEqual(cacheKey({ id: 7 }), cacheKey({ id: 7, format: "original" }));
});

Deno.test("isStale: Whether a URL is too close to its expiry to be handed out: within the last tenth of the lifetime…", () => {
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

// Behaviour of src/urls/url_cache_file.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { UrlCacheFile } from "../../../src/urls/url_cache_file.ts";

Deno.test("UrlCacheFile: The URL cache file of one scope in directory `dir`", async () => {
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

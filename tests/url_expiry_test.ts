import { deepStrictEqual, equal, ok, strictEqual } from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { compactDate, disguiseUrls } from "./signed_urls.ts";
import { until } from "./support.ts";
import {
  isNearExpiry,
  urlExpiry,
  usableUntil,
} from "../src/urls/signed_url.ts";

const HOUR = 3_600_000;
const decoder = new TextDecoder();
const text = (bytes: Uint8Array) => decoder.decode(bytes);

/** This second, as a `Date` header tells it. */
function thisSecond(): number {
  return Math.floor(Date.now() / 1000) * 1000;
}

/** Each store's way of signing a URL valid until `until`, signed at `signed` (epoch ms, whole seconds). */
const SCHEMES: Record<string, (signed: number, until: number) => string> = {
  "s3-v4": (signed, until) =>
    `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=${
      compactDate(signed)
    }&X-Amz-Expires=${(until - signed) / 1000}&X-Amz-Signature=ab12`,
  "s3-v2": (_, until) =>
    `AWSAccessKeyId=AKIA&Expires=${until / 1000}&Signature=ab%2B12`,
  "gcs-v4": (signed, until) =>
    `X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Date=${
      compactDate(signed)
    }&X-Goog-Expires=${(until - signed) / 1000}&X-Goog-Signature=ab12`,
  swift: (_, until) => `temp_url_sig=ab12&temp_url_expires=${until / 1000}`,
  azure: (_, until) =>
    `sv=2022-11-02&sr=b&sp=r&se=${
      encodeURIComponent(new Date(until).toISOString().replace(".000", ""))
    }&sig=ab12`,
  cloudfront: (_, until) =>
    `Expires=${until / 1000}&Signature=ab12&Key-Pair-Id=K2JCJMDEHXQW5F`,
};

/** `url` with its query replaced. */
function withQuery(url: URL, query: string): string {
  return `${url.origin}${url.pathname}?${query}`;
}

Deno.test("every store's expiry is read from its URL: a URL past it is resolved again, one of no known scheme is used until refused", async () => {
  const names = [...Object.keys(SCHEMES), "unknown"];
  await using emu = await startEmulator({
    files: Object.fromEntries(names.map((name) => [`${name}.txt`, name])),
  });
  const scheme = new Map(
    names.map((name) => [emu.fileId(`${name}.txt`), name]),
  );
  // Each URL lives one second by the clock of the answer that carries it.
  const dates = new Map<number, number>();
  const heads = disguiseUrls(emu, {
    date: (id) => {
      dates.set(id, thisSecond());
      return new Date(dates.get(id)!);
    },
    rewrite: (signed, id) => {
      const sign = SCHEMES[scheme.get(id)!];
      const at = dates.get(id)!;
      return withQuery(signed, sign ? sign(at, at + 1000) : "sig=ab12");
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const readAll = async () => {
    for (const name of names) {
      equal(text(await fs.catFile(`${name}.txt`)), name);
    }
  };
  await readAll();
  const counts = () =>
    Object.fromEntries(
      names.map((name) => [name, heads.get(emu.fileId(`${name}.txt`))]),
    );
  deepStrictEqual(counts(), Object.fromEntries(names.map((n) => [n, 1])));
  // A second is past for every URL once 1.2 s have passed since the last arrived.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  await readAll();
  deepStrictEqual(
    counts(),
    Object.fromEntries(names.map((n) => [n, n === "unknown" ? 1 : 2])),
  );
});

Deno.test("a URL's age is judged by the clock of the answer that carried it: 30 reads, 1 HEAD, however far the clocks are apart", async () => {
  const files = { "behind.txt": "behind", "stale.txt": "stale at birth" };
  await using emu = await startEmulator({ files });
  const behind = emu.fileId("behind.txt");
  // The repository's clock is two hours behind: it signs an hour-long URL at
  // its "now" and says that time in its Date header. For stale.txt its Date
  // header agrees with this machine, so the URL looks expired at birth.
  const skewed = () => thisSecond() - 2 * HOUR;
  const heads = disguiseUrls(emu, {
    date: (id) => id === behind ? new Date(skewed()) : undefined,
    rewrite: (signed) => {
      const query = new URLSearchParams(signed.search);
      query.set("X-Amz-Date", compactDate(skewed()));
      return withQuery(signed, query.toString());
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (let i = 0; i < 30; i++) {
    for (const [name, text] of Object.entries(files)) {
      equal(decoder.decode(await fs.catFile(name)), text);
    }
  }
  equal(heads.get(behind), 1);
  equal(heads.get(emu.fileId("stale.txt")), 1);
});

Deno.test("a URL from a repository whose clock is behind is kept in urlCacheDir with its true lifetime: the next instance sends no HEAD", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const skewed = () => thisSecond() - 2 * HOUR;
  const heads = disguiseUrls(emu, {
    date: () => new Date(skewed()),
    rewrite: (signed) => {
      const query = new URLSearchParams(signed.search);
      query.set("X-Amz-Date", compactDate(skewed()));
      return withQuery(signed, query.toString());
    },
  });
  const dir = await Deno.makeTempDir();
  try {
    const options = { host: emu.host, pid: emu.pid, urlCacheDir: dir };
    equal(text(await new RepoFs(options).catFile("a.txt")), "hello");
    const written = async () => {
      for await (const entry of Deno.readDir(dir)) {
        if (entry.name.endsWith(".json")) return join(dir, entry.name);
      }
      return undefined;
    };
    await until(async () => await written() !== undefined, "cache written");
    const [entry] = JSON.parse(await Deno.readTextFile((await written())!))
      .urls;
    ok(
      Math.abs(entry.clockOffsetMs + 2 * HOUR) < 5_000,
      `the offset of the repository's clock: ${entry.clockOffsetMs}`,
    );
    const later = new RepoFs(options);
    for (let i = 0; i < 30; i++) {
      equal(text(await later.catFile("a.txt")), "hello");
    }
    equal(heads.get(emu.fileId("a.txt")), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("refresh() drops the URLs whose expiry is unknown, and keeps those it can vouch for", async () => {
  const files = { "known.txt": "known", "unknown.txt": "unknown" };
  await using emu = await startEmulator({ files });
  const unknown = emu.fileId("unknown.txt");
  const heads = disguiseUrls(emu, {
    rewrite: (signed, id) =>
      id === unknown ? withQuery(signed, "sig=ab12") : undefined,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const readAll = async () => {
    for (const [name, content] of Object.entries(files)) {
      equal(text(await fs.catFile(name)), content);
    }
  };
  await readAll();
  await readAll();
  fs.refresh();
  await readAll();
  equal(heads.get(unknown), 2);
  equal(heads.get(emu.fileId("known.txt")), 1);
});

Deno.test("URL expiry is X-Amz-Date plus X-Amz-Expires", () => {
  const url =
    "https://s3.example/b/k?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600";
  strictEqual(
    new Date(urlExpiry(url)).toISOString(),
    "2026-01-01T01:00:00.000Z",
  );
  strictEqual(urlExpiry("https://example.org/plain"), Infinity);
});

Deno.test("a URL is handed out until the last tenth of its life", () => {
  strictEqual(usableUntil(3_600_000, 3_600_000), 3_570_000);
  strictEqual(usableUntil(60_000, 60_000), 54_000);
});

Deno.test("a URL past usableUntil is near expiry", () => {
  strictEqual(isNearExpiry(Date.now() + 3_600_000, 3_600_000), false);
  strictEqual(isNearExpiry(Date.now() + 1_000, 3_600_000), true);
});

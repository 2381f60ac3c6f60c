/** The URL cache across command-line processes: a process of its own for each run (task test, not test:fast). */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { type EmulatorOptions, startEmulator } from "../emulator.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { getArray } from "../zarr.ts";
import { urlMessageCounts } from "../src/pool/pool.ts";
import { buildZarrStore, ramp } from "../fixtures/zarr_writer.ts";
import { type CliRun, runCli } from "./support.ts";

const FORMAT = "repo-fs-url-cache/1";

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

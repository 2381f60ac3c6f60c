import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { type Emulator, startEmulator } from "../emulator.ts";
import { RepoFs, RepoFsPool } from "../mod.ts";
import { disguiseUrls, xmlError } from "./signed_urls.ts";
import { patterned, runCli } from "./support.ts";
import { hasRedis, startRedis } from "./redis_server.ts";
import { redisCoordinator } from "../fleet.ts";

const redis = await hasRedis();
const decoder = new TextDecoder();

/** How object stores refuse an expired content URL: status, body, and the code and message the error must name. */
const REFUSALS: Record<
  string,
  { answer: () => Response; code?: string; message: string }
> = {
  "S3 with temporary credentials": {
    answer: () =>
      xmlError(400, "ExpiredToken", "The provided token has expired."),
    code: "ExpiredToken",
    message: "The provided token has expired.",
  },
  "S3 asking for a token refresh": {
    answer: () =>
      xmlError(
        400,
        "TokenRefreshRequired",
        "The provided token must be refreshed.",
      ),
    code: "TokenRefreshRequired",
    message: "The provided token must be refreshed.",
  },
  "Swift": {
    answer: () =>
      new Response(
        "<html><h1>Unauthorized</h1><p>This server could not verify that you are authorized to access the document you requested.</p></html>",
        { status: 401, headers: { "content-type": "text/html" } },
      ),
    message: "This server could not verify that you are authorized",
  },
  "GCS, XML": {
    answer: () =>
      new Response(
        "<?xml version='1.0' encoding='UTF-8'?><Error><Code>ExpiredToken</Code><Message>Invalid argument.</Message><Details>Request signature expired at: 2026-01-01T00:00:00+00:00</Details></Error>",
        { status: 400, headers: { "content-type": "application/xml" } },
      ),
    code: "ExpiredToken",
    message: "Invalid argument.",
  },
  "GCS, JSON": {
    answer: () =>
      Response.json({
        error: {
          code: 400,
          message: "Request signature expired.",
          errors: [{ reason: "badRequest" }],
        },
      }, { status: 400 }),
    code: "badRequest",
    message: "Request signature expired.",
  },
  "S3, plain 403": {
    answer: () => xmlError(403, "AccessDenied", "Request has expired"),
    code: "AccessDenied",
    message: "Request has expired",
  },
};

/** One file per refusal, named after it. */
function refusalFiles(): Record<string, Uint8Array> {
  return Object.fromEntries(
    Object.keys(REFUSALS).map((
      name,
      i,
    ) => [`${slug(name)}.bin`, patterned(5_000, i)]),
  );
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** The refusal whose file `id` is, in `emu`. */
function refusalOf(emu: Emulator, id: number) {
  const name = Object.keys(REFUSALS).find((name) =>
    emu.fileId(`${slug(name)}.bin`) === id
  );
  return REFUSALS[name!];
}

Deno.test("a store's 400 ExpiredToken in the middle of a read: one more HEAD, and the read goes on from the byte it reached", async () => {
  const bytes = patterned(300_000);
  await using emu = await startEmulator({
    files: { "big.bin": bytes },
    // the first answer breaks off half-way
    faults: { rules: [{ route: "content", cutAfter: "half" }] },
  });
  const ranges: (string | null)[] = [];
  const heads = disguiseUrls(emu, {
    refuse: (request, info) => {
      ranges.push(request.headers.get("range"));
      return info.attempt === 2
        ? xmlError(400, "ExpiredToken", "The provided token has expired.")
        : undefined;
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  deepStrictEqual(await fs.catFile("big.bin"), bytes);
  equal(heads.get(emu.fileId("big.bin")), 2);
  equal(ranges.length, 3);
  equal(ranges[0], null);
  const resumed = /^bytes=(\d+)-$/.exec(ranges[2] ?? "");
  ok(resumed && Number(resumed[1]) > 0, `resumed with ${ranges[2]}`);
  equal(
    ranges[1],
    ranges[2],
    "the fresh URL is asked for what the refused one was",
  );
});

Deno.test("each store's refusal of a content URL is resolved once more; refused again, the error names the store, its code and message, and says it is not the API token", async () => {
  await using emu = await startEmulator({ files: refusalFiles() });
  const heads = disguiseUrls(emu, {
    refuse: (_request, info) => refusalOf(emu, info.fileId!).answer(),
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: "my-api-token",
  });
  for (const [name, refusal] of Object.entries(REFUSALS)) {
    const path = `${slug(name)}.bin`;
    await rejects(fs.catFile(path), (error: Error) => {
      const { message } = error;
      ok(message.includes(emu.storeOrigin), `${name}: ${message}`);
      ok(message.includes("object store refused the content URL"), message);
      ok(message.includes("not the API token"), message);
      ok(message.includes(refusal.message), `${name}: ${message}`);
      if (refusal.code) {
        ok(message.includes(refusal.code), `${name}: ${message}`);
      }
      ok(!message.includes("my-api-token"), message);
      return true;
    });
    equal(heads.get(emu.fileId(path)), 2, `${name}: one HEAD more`);
  }
});

Deno.test("each store's refusal of a content URL, once: the fresh URL reads the file", async () => {
  const files = refusalFiles();
  await using emu = await startEmulator({ files });
  const heads = disguiseUrls(emu, {
    refuse: (_request, info) =>
      info.attempt === 1 ? refusalOf(emu, info.fileId!).answer() : undefined,
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (const [path, bytes] of Object.entries(files)) {
    deepStrictEqual(await fs.catFile(path), bytes);
    equal(heads.get(emu.fileId(path)), 2, path);
  }
});

Deno.test("a store's 400 ExpiredToken to a pool's worker: its main thread resolves the URL once more, and the read goes on from the byte it reached", async () => {
  const bytes = patterned(300_000);
  await using emu = await startEmulator({
    files: { "big.bin": bytes },
    faults: { rules: [{ route: "content", cutAfter: "half" }] },
  });
  const ranges: (string | null)[] = [];
  const heads = disguiseUrls(emu, {
    refuse: (request, info) => {
      ranges.push(request.headers.get("range"));
      return info.attempt === 2
        ? xmlError(400, "ExpiredToken", "The provided token has expired.")
        : undefined;
    },
  });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await using pool = new RepoFsPool(fs, { workers: 1 });
  deepStrictEqual(await pool.catFile("big.bin"), bytes);
  equal(heads.get(emu.fileId("big.bin")), 2);
  equal(ranges.length, 3);
  ok(/^bytes=[1-9]\d*-/.test(ranges[2] ?? ""), `resumed with ${ranges[2]}`);
  equal(ranges[1], ranges[2]);
});

Deno.test("the repository's own 401 is the API token's: no second HEAD, and nothing said of a content URL", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "hello" },
    faults: { redirect: false }, // the repository serves the bytes itself
  });
  let heads = 0;
  emu.faults.respond = (_request, info) => {
    if (info.route === "head") heads++;
    if (info.origin !== "repository" || info.route !== "content") return;
    return Response.json({ status: "ERROR", message: "Bad API key" }, {
      status: 401,
    });
  };
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(fs.catFile("a.txt"), (error: Error) => {
    ok(error.message.includes("Bad API key"), error.message);
    ok(!error.message.includes("content URL"), error.message);
    return true;
  });
  equal(heads, 1);
});

/** A week-long URL made from the emulator's own, and whether a URL is one. */
const WEEK = {
  rewrite: (signed: URL) => {
    const url = new URL(signed);
    url.searchParams.set("X-Amz-Expires", "604800");
    return url.href;
  },
  is: (request: Request) =>
    new URL(request.url).searchParams.get("X-Amz-Expires") === "604800",
};

Deno.test("a URL the store refuses is replaced in urlCacheDir: the next process uses the fresh one, though the refused one claimed a week", async () => {
  const files = { "a.txt": "aaa", "b.txt": "bbb", "c.txt": "ccc" };
  await using emu = await startEmulator({ files });
  const tmp = await Deno.realPath(await Deno.makeTempDir());
  try {
    let refusing = false;
    const heads = disguiseUrls(emu, {
      rewrite: (signed) => refusing ? undefined : WEEK.rewrite(signed),
      refuse: (request) =>
        refusing && WEEK.is(request)
          ? xmlError(400, "ExpiredToken", "The provided token has expired.")
          : undefined,
    });
    const total = () => [...heads.values()].reduce((a, b) => a + b, 0);
    const get = async (out: string) => {
      const run = await runCli([
        "--host",
        emu.host,
        "--pid",
        emu.pid,
        "--url-cache-dir",
        join(tmp, "cache"),
        "get",
        "**",
        "--out",
        join(tmp, out),
      ]);
      equal(run.code, 0, run.stderr);
      for (const [name, text] of Object.entries(files)) {
        equal(decoder.decode(await Deno.readFile(join(tmp, out, name))), text);
      }
    };
    await get("first");
    equal(total(), 3);
    refusing = true; // the week-long URLs' credentials are revoked
    await get("second");
    equal(total(), 6, "each refused URL resolved once more");
    await get("third");
    equal(total(), 6, "the fresh URLs came from the file");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test({
  name:
    "a URL the store refuses is replaced in the coordinator: the next instance uses the fresh one, though the refused one claimed a week",
  ignore: !redis,
  async fn() {
    const files = { "a.txt": "aaa", "b.txt": "bbb", "c.txt": "ccc" };
    await using emu = await startEmulator({ files });
    await using server = await startRedis();
    let refusing = false;
    const heads = disguiseUrls(emu, {
      rewrite: (signed) => refusing ? undefined : WEEK.rewrite(signed),
      refuse: (request) =>
        refusing && WEEK.is(request)
          ? xmlError(400, "ExpiredToken", "The provided token has expired.")
          : undefined,
    });
    const total = () => [...heads.values()].reduce((a, b) => a + b, 0);
    const readAll = async () => {
      const fs = new RepoFs({
        host: emu.host,
        pid: emu.pid,
        coordinator: redisCoordinator(server.url),
      });
      for (const [name, text] of Object.entries(files)) {
        equal(decoder.decode(await fs.catFile(name)), text);
      }
    };
    await readAll();
    equal(total(), 3);
    refusing = true;
    await readAll();
    equal(total(), 6, "each refused URL resolved once more");
    await readAll();
    equal(total(), 6, "the fresh URLs came from the coordinator");
  },
});

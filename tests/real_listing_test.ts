import {
  deepStrictEqual,
  equal,
  match,
  ok,
  rejects,
  throws,
} from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  DeaccessionedError,
  listCollection,
  NotFoundError,
  RepoFs,
  RepoFsPool,
  RepoHttpError,
  RepoProtocolError,
} from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import type { Emulator, EmulatorOptions } from "../emulator.ts";
import { recordingLogger, withStranger } from "./support.ts";

const DOI = "doi:10.5072/FK2/EMULATED";

/** `n` files in nested folders, 16 per folder. */
function manyFiles(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`run${i % 7}/part${Math.floor(i / 16)}/f${i}.nc`] = `${i}`;
  }
  return files;
}

/** Every path with its entry, directories included: what "the same tree" means. */
async function treeOf(fs: RepoFs): Promise<unknown[]> {
  const paths = await fs.find("", { withdirs: true });
  return await Promise.all(paths.map((path) => fs.info(path)));
}

/** A `RepoFs` over the emulator's dataset. */
function dataset(
  emu: Emulator,
  options: Partial<ConstructorParameters<typeof RepoFs>[0]> = {},
): RepoFs {
  return new RepoFs({ host: emu.host, pid: emu.pid, ...options });
}

/** The real `fetch`, with every URL asked recorded. */
function recordingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    },
  };
}

async function getJson(url: string, headers: HeadersInit = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

// PIDs

Deno.test("every accepted form of a DOI reaches the dataset under its normal form", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  for (
    const pid of [
      DOI,
      "DOI:10.5072/FK2/EMULATED",
      "10.5072/FK2/EMULATED",
      "https://doi.org/10.5072/FK2/EMULATED",
      "http://dx.doi.org/10.5072%2FFK2%2FEMULATED",
      " doi:10.5072/FK2/EMULATED\n",
    ]
  ) {
    const fs = dataset(emu, { pid });
    equal(fs.pid, DOI, pid);
    deepStrictEqual(await fs.find(""), ["a.txt"], pid);
    equal(fs.serialize().options.pid, DOI);
  }
  equal(
    emu.counters.listingCalls,
    1,
    "every form shares one table: they are one dataset",
  );
});

Deno.test("handles and permalinks are datasets too, in the emulator and the client", async () => {
  for (
    const [given, normal, pasted] of [
      [
        "HDL:1902.1/00097-8",
        "hdl:1902.1/00097-8",
        "https://hdl.handle.net/1902.1/00097-8",
      ],
      ["perma:ABC123", "perma:ABC123", "PERMA:ABC123"],
    ]
  ) {
    await using emu = await startEmulator({
      pid: given,
      files: { "x/y.txt": "y" },
    });
    equal(emu.pid, normal);
    const fs = dataset(emu, { pid: pasted });
    equal(fs.pid, normal);
    deepStrictEqual(await fs.find(""), ["x/y.txt"]);
    const [item] = await listCollection({
      host: emu.host,
      alias: emu.alias,
    }) as Record<string, string>[];
    equal(
      `${item.protocol}:${item.authority}${item.separator}${item.identifier}`,
      normal,
    );
  }
});

Deno.test("the emulator matches the scheme of a persistent id in any case, the rest exactly", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const url = (pid: string) =>
    `${emu.host}/api/datasets/:persistentId/?persistentId=${
      encodeURIComponent(pid)
    }`;
  equal((await getJson(url("DOI:10.5072/FK2/EMULATED"))).status, 200);
  equal((await getJson(url("Doi:10.5072/FK2/EMULATED"))).status, 200);
  equal((await getJson(url("doi:10.5072/fk2/emulated"))).status, 404);
});

Deno.test("a file's persistent id is named as a file's, with its dataset", async () => {
  await using emu = await startEmulator({
    filePids: true,
    files: { "data/table.csv": "a,b\n1,2\n", "b.txt": "b" },
  });
  const { body } = await getJson(
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  );
  const entries = body.data.latestVersion.files as {
    label: string;
    dataFile: { persistentId: string };
  }[];
  const filePid = entries.find((e) => e.label === "table.csv")!.dataFile
    .persistentId;
  match(filePid, /^doi:10\.5072\/FK2\/EMULATED\/[0-9A-Z]{6}$/);
  equal(new Set(entries.map((e) => e.dataFile.persistentId)).size, 2);

  const lookup = await getJson(
    `${emu.host}/api/files/:persistentId/?persistentId=${
      filePid.replace("doi:", "DOI:")
    }`,
  );
  equal(lookup.status, 200);
  equal(lookup.body.data.label, "table.csv");
  equal(lookup.body.data.datasetVersion.datasetPersistentId, emu.pid);

  const recorder = recordingFetch();
  const fs = dataset(emu, { pid: filePid, fetch: recorder.fetch });
  await rejects(fs.ls(""), (e: unknown) => {
    ok(e instanceof RepoHttpError, String(e));
    equal(e.status, 404);
    ok(
      e.message.includes(
        `${filePid} is the persistent id of the file "table.csv", not of a dataset; the file's dataset is ${emu.pid}`,
      ),
      e.message,
    );
    ok(e.cause instanceof RepoHttpError);
    return true;
  });
  equal(
    recorder.urls.filter((u) => u.includes("/api/files/:persistentId/"))
      .length,
    1,
  );

  const missing = dataset(emu, { pid: "doi:10.5072/FK2/NOPE" });
  await rejects(
    missing.ls(""),
    (e: unknown) =>
      e instanceof RepoHttpError && e.status === 404 &&
      e.message.includes("Dataset with Persistent ID doi:10.5072/FK2/NOPE"),
  );
});

Deno.test("without filePids files have an empty persistentId and the lookup answers 404", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "a" } });
  const { body } = await getJson(
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  );
  equal(body.data.latestVersion.files[0].dataFile.persistentId, "");
  const lookup = await getJson(
    `${emu.host}/api/files/:persistentId/?persistentId=${emu.pid}/ABCDEF`,
  );
  equal(lookup.status, 404);
  equal(lookup.body.status, "ERROR");
});

// The token header and the collections path

const NAMED: EmulatorOptions = {
  files: { "dir/a.txt": "alpha", "b.bin": "bravo" },
  token: "sekrit-token",
  tokenHeader: "X-Dataverse-key",
  collectionsPath: "dataverses",
  alias: "science",
};

Deno.test("a custom token header carries the token; the default one is then refused", async () => {
  await using emu = await startEmulator(NAMED);
  const named = dataset(emu, {
    token: "sekrit-token",
    tokenHeader: "X-Dataverse-key",
  });
  equal(new TextDecoder().decode(await named.catFile("dir/a.txt")), "alpha");
  emu.faults.redirect = false;
  equal(new TextDecoder().decode(await named.catFile("b.bin")), "bravo");
  equal(emu.counters.storeRequestsWithToken, 0);
  equal(named.serialize().options.tokenHeader, "X-Dataverse-key");

  const plain = dataset(emu, { token: "sekrit-token" });
  await rejects(plain.ls(""), (e: unknown) => {
    ok(e instanceof RepoHttpError && e.status === 401, String(e));
    ok(e.message.includes("Bad API key"));
    ok(!e.message.includes("sekrit-token"));
    return true;
  });

  const store = await fetch(`${emu.storeOrigin}/repo-emulator/x`, {
    headers: { "X-Dataverse-key": "sekrit-token" },
  });
  await store.body?.cancel();
  equal(emu.counters.storeRequestsWithToken, 1, "the configured name counts");
});

Deno.test("a serialised instance and a pool's workers keep the token header", async () => {
  await using emu = await startEmulator({
    ...NAMED,
    faults: { redirect: false },
  });
  const fs = dataset(emu, {
    token: "sekrit-token",
    tokenHeader: "X-Dataverse-key",
  });
  const copy = RepoFs.fromSerialized(
    JSON.parse(JSON.stringify(fs.serialize())),
  );
  deepStrictEqual(await copy.find(""), ["b.bin", "dir/a.txt"]);
  await using pool = new RepoFsPool(copy, { workers: 1 });
  equal(new TextDecoder().decode(await pool.catFile("dir/a.txt")), "alpha");
  equal(emu.counters.accessGets, 1, "the worker read from the repository");
});

Deno.test("listCollection takes the collections path and the token header", async () => {
  await using emu = await startEmulator(NAMED);
  const options = {
    host: emu.host,
    alias: "science",
    token: "sekrit-token",
    tokenHeader: "X-Dataverse-key",
  };
  const items = await listCollection({
    ...options,
    collectionsPath: "dataverses",
  }) as { type: string }[];
  deepStrictEqual(items.map((i) => i.type), ["dataset"]);
  await rejects(
    listCollection(options),
    (e: unknown) =>
      e instanceof RepoHttpError && e.status === 404 &&
      e.message.includes("/api/repos/science/contents") &&
      e.message.includes("API endpoint does not exist"),
  );
  await rejects(
    listCollection({
      ...options,
      collectionsPath: "dataverses",
      token: "wrong-token",
    }),
    /Bad API key/,
  );
  equal(emu.counters.collectionCalls, 2);
});

Deno.test("names that cannot be a header or a path are TypeErrors naming them", () => {
  const base = { host: "http://127.0.0.1:1", pid: DOI };
  for (const tokenHeader of ["", "X Key", "X-Key:", "Ключ"]) {
    throws(
      () => new RepoFs({ ...base, tokenHeader }),
      (e: Error) =>
        e instanceof TypeError && e.message.includes("tokenHeader") &&
        e.message.includes(JSON.stringify(tokenHeader)),
    );
  }
  for (const collectionsPath of ["", "/repos", "a//b", "..", "a/../b", "a b"]) {
    throws(
      () => new RepoFs({ ...base, collectionsPath }),
      (e: Error) =>
        e instanceof TypeError && e.message.includes("collectionsPath") &&
        e.message.includes(JSON.stringify(collectionsPath)),
    );
  }
  ok(new RepoFs({ ...base, collectionsPath: "api/v1/dataverses" }));
});

Deno.test("CLI: --token-header and --collections-path", async () => {
  await using emu = await startEmulator(NAMED);
  const cli = fileURLToPath(new URL("../cli.ts", import.meta.url));
  const run = async (args: string[]) => {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-net", "--allow-read", "--allow-env", cli, ...args],
      env: { REPO_API_TOKEN: "sekrit-token", NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const text = new TextDecoder();
    return { code, stdout: text.decode(stdout), stderr: text.decode(stderr) };
  };
  const names = [
    "--token-header",
    "X-Dataverse-key",
    "--collections-path",
    "dataverses",
  ];
  const host = ["--host", emu.host];
  const [find, datasets, refused, bad] = await Promise.all([
    run([...host, "--pid", "10.5072/FK2/EMULATED", ...names, "find"]),
    run([...host, ...names, "datasets", "science"]),
    run([...host, "--pid", emu.pid, "find"]),
    run([...host, "--pid", emu.pid, "--token-header", "X Key", "find"]),
  ]);
  equal(find.code, 0, find.stderr);
  equal(find.stdout, "b.bin\ndir/a.txt\n");
  equal(datasets.code, 0, datasets.stderr);
  ok(datasets.stdout.startsWith(`${emu.pid}  dataset`), datasets.stdout);
  equal(refused.code, 1);
  ok(refused.stderr.includes("Bad API key"), refused.stderr);
  equal(bad.code, 2);
  ok(bad.stderr.includes("tokenHeader"), bad.stderr);
});

// Deaccessioned datasets and versions

/** A body that never ends, sent as fast as it is read. */
function endless(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
  return new ReadableStream({ pull: (c) => c.enqueue(chunk) });
}

Deno.test("a dataset answer that is a list, not a dataset, is a protocol error, not a deaccessioned dataset", async () => {
  // No paged file list, and a list for every other answer.
  await withStranger(
    (request) =>
      new URL(request.url).pathname.endsWith("/files")
        ? new Response("no such endpoint", { status: 404 })
        : Response.json({ status: "OK", data: [] }),
    async (host) => {
      await rejects(new RepoFs({ host, pid: DOI }).ls(""), (e: unknown) => {
        ok(e instanceof RepoProtocolError, String(e));
        match(e.message, /the dataset answer is not an object/);
        return true;
      });
    },
  );
});

Deno.test("an answer that never ends is an error naming the problem, read no further than needed", async () => {
  await withStranger(
    () =>
      new Response(endless(), {
        headers: { "content-type": "application/json" },
      }),
    async (host) => {
      await rejects(new RepoFs({ host, pid: DOI }).ls(""), (e: unknown) => {
        ok(e instanceof RepoProtocolError, String(e));
        match(e.message, /goes on past 500 MiB/);
        return true;
      });
    },
  );
  // An error page: its first 8 KiB are all a message needs.
  let answered = 0;
  await withStranger(
    () => {
      answered++;
      return new Response(endless(), { status: 500 });
    },
    async (host) => {
      const fs = new RepoFs({
        host,
        pid: DOI,
        retry: { retries: 2, baseDelayMs: 1 },
      });
      await rejects(fs.ls(""), (e: unknown) => {
        ok(e instanceof RepoHttpError && e.status === 500, String(e));
        match(e.message, /xxxx/);
        return true;
      });
    },
  );
  equal(answered, 3, "retried as any 500 is");
});

Deno.test("a deaccessioned dataset says so and that no version remains readable", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    versions: { "1.0": { "a.txt": "old" } },
    deaccessioned: true,
  });
  const fs = dataset(emu);
  await rejects(fs.ls(""), (e: unknown) => {
    ok(e instanceof DeaccessionedError, String(e));
    equal(
      e.message,
      `The dataset ${emu.pid} is deaccessioned; no version remains readable`,
    );
    deepStrictEqual(e.readableVersions, []);
    return true;
  });
  equal(
    emu.counters.listingCalls,
    3,
    "the page (404), the dataset, the list of versions",
  );
  const { body } = await getJson(
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  );
  equal(body.status, "OK");
  equal("latestVersion" in body.data, false);
});

Deno.test("a deaccessioned version names the versions that remain readable", async () => {
  await using emu = await startEmulator({
    files: { "now.txt": "now" },
    versions: {
      "1.0": { "one.txt": "1" },
      "2.0": { "two.txt": "2" },
      "1.1": { "one.txt": "1.1" },
    },
    deaccessioned: ["2.0"],
  });
  await rejects(dataset(emu, { version: "2.0" }).ls(""), (e: unknown) => {
    ok(e instanceof DeaccessionedError, String(e));
    equal(
      e.message,
      `Version 2.0 of the dataset ${emu.pid} is deaccessioned; readable versions: 1.0, 1.1, :draft`,
    );
    equal(e.version, "2.0");
    return true;
  });
  deepStrictEqual(await dataset(emu, { version: "1.1" }).find(""), [
    "one.txt",
  ]);
  deepStrictEqual(await dataset(emu).find(""), ["now.txt"]);
  const versions = await getJson(
    `${emu.host}/api/datasets/:persistentId/versions?persistentId=${emu.pid}`,
  );
  deepStrictEqual(
    versions.body.data.map((v: Record<string, unknown>) => [
      v.versionNumber,
      v.versionState,
      "files" in v,
    ]),
    [
      [1, "RELEASED", false],
      [2, "DEACCESSIONED", false],
      [1, "RELEASED", false],
      [undefined, "DRAFT", false],
    ],
  );
});

Deno.test("a latestVersion that is DEACCESSIONED is a deaccessioned dataset", async () => {
  await using emu = await startEmulator({
    files: { "now.txt": "now" },
    versions: { "1.0": { "one.txt": "1" } },
    deaccessioned: [":latest"],
    pagedFiles: false,
  });
  await rejects(
    dataset(emu).ls(""),
    new RegExp(
      `^DeaccessionedError: The dataset ${emu.pid} is deaccessioned; readable versions: 1\\.0$`,
    ),
  );
  deepStrictEqual(await dataset(emu, { version: "1.0" }).find(""), [
    "one.txt",
  ]);
});

// Paged file lists

Deno.test("a 12,000-file listing read in pages is the tree read whole", async () => {
  const files = manyFiles(12_000);
  await using paged = await startEmulator({ files });
  await using whole = await startEmulator({ files, pagedFiles: false });
  const logger = recordingLogger();
  const pagedFs = dataset(paged, { logger });
  const wholeFs = dataset(whole);
  equal((await pagedFs.find("")).length, 12_000);
  deepStrictEqual(await treeOf(pagedFs), await treeOf(wholeFs));
  equal(paged.counters.listingCalls, 12, "one call per 1,000-file page");
  equal(whole.counters.listingCalls, 2, "a 404 on the page, then the whole");
  deepStrictEqual(
    logger.lines.filter((l) => l.msg.startsWith("Listed ")),
    [
      { level: "info", msg: `Listed 10,000 of 12,000 files of ${paged.pid}` },
    ],
  );
  wholeFs.refresh();
  await wholeFs.ls("");
  equal(whole.counters.listingCalls, 3, "pages are not asked for again");
});

Deno.test("the paged file list answers like a newer installation", async () => {
  await using emu = await startEmulator({
    files: manyFiles(30),
    versions: { "1.0": { "old.txt": "o" } },
    maxPageSize: 20,
  });
  const page = (version: string, query: string) =>
    getJson(
      `${emu.host}/api/datasets/:persistentId/versions/${version}/files?persistentId=${emu.pid}${query}`,
    );
  const first = await page(":latest", "&limit=25&offset=0");
  equal(first.status, 200);
  equal(first.body.status, "OK");
  equal(first.body.totalCount, 30);
  equal(first.body.data.length, 20, "capped at maxPageSize");
  const last = await page(":latest", "&limit=25&offset=20");
  equal(last.body.data.length, 10);
  equal(last.body.data[0].dataFile.id, emu.fileId("run6/part1/f20.nc"));
  const old = await page("1.0", "");
  deepStrictEqual(old.body.data.map((e: { label: string }) => e.label), [
    "old.txt",
  ]);
  equal(old.body.totalCount, 1);
  equal((await page(":latest", "&limit=-1")).status, 400);
  equal((await page("9.9", "")).status, 404);
});

Deno.test("pages smaller than asked are followed to the end", async () => {
  await using emu = await startEmulator({
    files: manyFiles(1000),
    maxPageSize: 300,
  });
  const fs = dataset(emu);
  equal((await fs.find("")).length, 1000);
  equal(emu.counters.listingCalls, 4);
});

Deno.test("the pages after the first are asked for three at a time, each once", async () => {
  const files = manyFiles(5500);
  await using emu = await startEmulator({
    files,
    faults: { latencyMs: 100 },
  });
  const fs = dataset(emu);
  deepStrictEqual(await fs.find(""), Object.keys(files).sort());
  equal(emu.counters.listingCalls, 6);
  equal(emu.counters.peakConcurrentListingCalls, 3);
});

Deno.test("a file count that changes between pages restarts the listing once", async () => {
  await using emu = await startEmulator({ files: manyFiles(2500) });
  const logger = recordingLogger();
  const fs = dataset(emu, { logger });
  // One page after the first says one file more, as when a file is added between pages.
  let drift = 1;
  emu.faults.respond = async (request, info) => {
    const offset = new URL(request.url).searchParams.get("offset");
    if (info.route !== "listing" || !Number(offset) || drift-- <= 0) return;
    const page = await (await info.next()).json();
    return Response.json({ ...page, totalCount: page.totalCount + 1 });
  };
  equal((await fs.find("")).length, 2500);
  equal(
    emu.counters.listingCalls,
    3 + 3,
    "page 2 or 3 differed (both were asked for at once); 3 pages again",
  );
  const warnings = logger.lines.filter((l) => l.level === "warn");
  equal(warnings.length, 1);
  match(
    warnings[0].msg,
    /^the file count changed from 2500 to 2501 while the list was read \(.*\); listing doi:10\.5072\/FK2\/EMULATED again$/,
  );
});

Deno.test("pages that repeat a file twice in a row are a RepoProtocolError", async () => {
  await using emu = await startEmulator({ files: manyFiles(2500) });
  const logger = recordingLogger();
  const fs = dataset(emu, { logger });
  // Pages after the first start one file early, as when a file is renamed
  // to the front of the list between pages: pages 2 and 3, asked for at
  // once, twice.
  let overlaps = 4;
  emu.faults.respond = (request, info) => {
    const url = new URL(request.url);
    const offset = Number(url.searchParams.get("offset"));
    if (info.route !== "listing" || !offset || overlaps-- <= 0) return;
    url.searchParams.set("offset", String(offset - 1));
    return info.next(new Request(url, { headers: request.headers }));
  };
  await rejects(fs.ls(""), (e: unknown) => {
    ok(e instanceof RepoProtocolError, String(e));
    match(
      e.message,
      new RegExp(
        `^file id ${
          emu.fileId("run5/part62/f999.nc")
        } is listed again on the page from offset 1000`,
      ),
    );
    return true;
  });
  equal(logger.lines.filter((l) => l.level === "warn").length, 1);
  equal(emu.counters.listingCalls, 6);
  deepStrictEqual((await fs.find("")).length, 2500, "the next call lists anew");
});

// Rate limiting

Deno.test("a HEAD rate-limited past the retries says so and what the backoff cost", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": "a" },
    faults: { rules: [{ route: "head", status: 429, times: 3 }] },
  });
  const fs = dataset(emu, { retry: { retries: 2, baseDelayMs: 40 } });
  const id = emu.fileId("a.bin");
  await rejects(fs.resolveDownloadUrl(id), (e: unknown) => {
    ok(e instanceof RepoHttpError, String(e));
    equal(e.status, 429);
    match(
      e.message,
      new RegExp(
        `^HTTP 429 from ${emu.host}/api/access/datafile/${id}: rate limited by the repository; gave up after 3 attempts and \\d+\\.\\d s of backoff$`,
      ),
    );
    ok(e.cause instanceof RepoHttpError && e.cause.status === 429);
    return true;
  });
  equal(emu.counters.heads, 3);
  equal(await fs.catFile("a.bin").then((b) => b.length), 1, "then it reads");
});

Deno.test("a rate-limited listing keeps the repository's message; other statuses are unchanged", async () => {
  await using emu = await startEmulator({
    files: { "a.bin": "a" },
    faults: { rules: [{ route: "listing", status: 429, times: 2 }] },
  });
  const fs = dataset(emu, { retry: { retries: 1, baseDelayMs: 1 } });
  await rejects(
    fs.ls(""),
    /rate limited by the repository; gave up after 2 attempts and \d+\.\d s of backoff \(Too many requests; the rate limit has been exceeded\.\)$/,
  );
  emu.faults.rules.push({ route: "listing", status: 503, times: 2 });
  await rejects(fs.ls(""), (e: unknown) => {
    ok(e instanceof RepoHttpError && e.status === 503, String(e));
    ok(!e.message.includes("rate limited"), e.message);
    return true;
  });
});

Deno.test("a draft with no files yet is an empty tree, paged or whole", async () => {
  for (const pagedFiles of [true, false]) {
    await using emu = await startEmulator({ files: {}, pagedFiles });
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, version: ":draft" });
    deepStrictEqual(await fs.ls(""), [], `paged: ${pagedFiles}`);
    deepStrictEqual(await fs.find("", { withdirs: true }), []);
    equal((await fs.info("")).type, "directory");
    await rejects(fs.catFile("anything"), NotFoundError);
  }
});

import {
  deepStrictEqual,
  equal,
  ok,
  rejects,
  strictEqual,
  throws,
} from "node:assert/strict";
import { deflateRawSync, deflateSync } from "node:zlib";
import { startEmulator } from "../emulator.ts";
import type { RequestInfo } from "../src/emulator/respond_hook.ts";
import { listCollection, RepoFs } from "../mod.ts";
import { withStranger } from "./support.ts";
import { FileLister } from "../src/api/file_lister.ts";
import { RepoApi } from "../src/api/repo_api.ts";
import { RoutingTable } from "../src/tree/routing_table.ts";
import { embargoActive, field, listedFiles } from "../src/api/listing_entry.ts";
import { asOriginal } from "../src/base/listed_file.ts";

const FILES = { "a.txt": "hello", "data/b.txt": "world" };
const TOKEN = "listing-token-1234";
const MOVED = "moved=1";

/** The listing routes a test aims at: the dataset and file-list endpoints, collections. */
const aimed = (info: RequestInfo) =>
  info.route === "listing" || info.route === "collection";

/** The same request, marked as moved, as a URL. */
function movedUrl(request: Request): URL {
  const url = new URL(request.url);
  url.searchParams.set("moved", "1");
  return url;
}

for (const pagedFiles of [true, false]) {
  Deno.test(
    `a 301/302/307/308 on the listing within the repository's origin is followed with the token (${
      pagedFiles ? "paged file list" : "dataset endpoint"
    })`,
    async () => {
      await using emu = await startEmulator({
        files: FILES,
        token: TOKEN,
        pagedFiles,
      });
      const statuses = [301, 302, 307, 308];
      const seen: { moved: boolean; token: string | null; path: string }[] = [];
      emu.faults.respond = (request, info) => {
        if (!aimed(info)) return undefined;
        const moved = request.url.includes(MOVED);
        seen.push({
          moved,
          token: request.headers.get("X-Repo-key"),
          path: new URL(request.url).pathname,
        });
        if (moved) return undefined;
        const url = movedUrl(request);
        // A relative Location, as RFC 9110 allows.
        return new Response(null, {
          status: statuses[(seen.length - 1) % statuses.length],
          headers: { Location: `${url.pathname}${url.search}` },
        });
      };
      const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: TOKEN });
      deepStrictEqual(await fs.find(""), ["a.txt", "data/b.txt"]);
      ok(seen.every((request) => request.token === TOKEN));
      // The endpoint that answered is the one redirected and followed.
      ok(
        seen.some((request) =>
          request.moved && request.path.endsWith("/files") === pagedFiles
        ),
      );
    },
  );
}

Deno.test("a redirect of the listing or a collection to another origin is refused with a token, naming where it points, and the token never goes there", async () => {
  await using emu = await startEmulator({ files: FILES, token: TOKEN });
  const strangerSaw: (string | null)[] = [];
  await withStranger((request) => {
    strangerSaw.push(request.headers.get("X-Repo-key"));
    return new Response("{}");
  }, async (stranger) => {
    emu.faults.respond = (_request, info) =>
      aimed(info)
        ? new Response(null, {
          status: 302,
          headers: { Location: `${stranger}/mirror/listing?sig=s3cr3t` },
        })
        : undefined;
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: TOKEN });
    await rejects(fs.ls(""), (error: Error) => {
      ok(error.message.includes(`${stranger}/mirror/listing`), error.message);
      ok(
        error.message.includes(
          "redirects to another origin are not followed with an API token",
        ),
        error.message,
      );
      ok(!error.message.includes("s3cr3t"), error.message);
      return true;
    });
    await rejects(
      listCollection({ host: emu.host, alias: emu.alias, token: TOKEN }),
      /redirected to http:\/\/127\.0\.0\.1:\d+\/mirror\/listing, another origin; redirects to another origin are not followed with an API token/,
    );
    deepStrictEqual(strangerSaw, []);
  });
});

Deno.test("without a token, a redirect of the listing to another origin is followed", async () => {
  await using emu = await startEmulator({ files: FILES });
  const strangerSaw: string[] = [];
  await withStranger(async (request) => {
    strangerSaw.push(new URL(request.url).pathname);
    const url = movedUrl(request);
    const answer = await fetch(`${emu.host}${url.pathname}${url.search}`);
    return new Response(await answer.text(), { status: answer.status });
  }, async (stranger) => {
    emu.faults.respond = (request, info) => {
      if (!aimed(info) || request.url.includes(MOVED)) return undefined;
      const { pathname, search } = new URL(request.url);
      return new Response(null, {
        status: 307,
        headers: { Location: `${stranger}${pathname}${search}` },
      });
    };
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    deepStrictEqual(await fs.find(""), ["a.txt", "data/b.txt"]);
    ok(strangerSaw.length > 0);
    const items = await listCollection({ host: emu.host, alias: emu.alias });
    equal(items.length, 1);
  });
});

Deno.test("a redirect loop on the listing ends with a named error", async () => {
  await using emu = await startEmulator({ files: FILES });
  emu.faults.respond = (request, info) =>
    aimed(info)
      ? new Response(null, { status: 302, headers: { Location: request.url } })
      : undefined;
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(fs.ls(""), /the repository redirected more than 5 times/);
});

/** The emulator's own listing answer, its body coded by `code` and labelled `coding`. */
async function coded(
  info: RequestInfo,
  coding: string,
  code: (bytes: Uint8Array) => Uint8Array,
): Promise<Response> {
  const answer = await info.next();
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  headers.set("content-encoding", coding);
  const body = code(new Uint8Array(await answer.arrayBuffer()));
  return new Response(new Uint8Array(body), { status: answer.status, headers });
}

const CODES: [string, (bytes: Uint8Array) => Uint8Array][] = [
  ["zlib", (bytes) => deflateSync(bytes)],
  ["raw deflate (mislabelled)", (bytes) => deflateRawSync(bytes)],
  ["left as it is", (bytes) => bytes],
];

for (const [form, code] of CODES) {
  Deno.test(`a listing with Content-Encoding: deflate, ${form}, is read`, async () => {
    await using emu = await startEmulator({ files: FILES });
    emu.faults.respond = (_request, info) =>
      aimed(info) ? coded(info, "deflate", code) : undefined;
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    deepStrictEqual(await fs.find(""), ["a.txt", "data/b.txt"]);
    equal(
      (await listCollection({ host: emu.host, alias: emu.alias })).length,
      1,
    );
  });
}

Deno.test("a listing whose deflate body cannot be inflated names the coding", async () => {
  await using emu = await startEmulator({ files: FILES });
  emu.faults.respond = (_request, info) =>
    aimed(info)
      ? coded(info, "deflate", (bytes) => deflateSync(bytes).subarray(0, 12))
      : undefined;
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await rejects(
    fs.ls(""),
    /has Content-Encoding "deflate" but is neither zlib nor raw deflate data of JSON/,
  );
});

for (const coding of ["br2", "x-foo", "gzip, x-foo"]) {
  Deno.test(`a listing with the unknown Content-Encoding "${coding}" is refused by name, not as "not JSON"`, async () => {
    await using emu = await startEmulator({ files: FILES });
    emu.faults.respond = (_request, info) =>
      aimed(info) ? coded(info, coding, (bytes) => bytes) : undefined;
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const unknown = coding.split(", ").at(-1);
    await rejects(fs.ls(""), (error: Error) => {
      ok(
        error.message.includes(
          `has Content-Encoding "${coding}": "${unknown}" is not a coding this client can undo`,
        ),
        error.message,
      );
      ok(!error.message.includes("not JSON"), error.message);
      return true;
    });
  });
}

Deno.test("a redirect of the listing to another scheme, or with a user name and password, is refused by name even without a token", async () => {
  await using emu = await startEmulator({ files: FILES });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  for (
    const [location, said] of [
      [
        "file:///etc/passwd",
        "redirected to file:/etc/passwd; only http and https are followed",
      ],
      [
        `${emu.host.replace("//", "//user:pw@")}/api/x`,
        "with a user name or password; that is not followed",
      ],
    ]
  ) {
    emu.faults.respond = (_request, info) =>
      aimed(info)
        ? new Response(null, { status: 301, headers: { Location: location } })
        : undefined;
    await rejects(fs.ls(""), (error: Error) => {
      ok(error.message.includes(said), error.message);
      ok(!error.message.includes("pw@"), error.message);
      return true;
    });
  }
});

Deno.test("a listing labelled gzip that the runtime cannot undo fails naming the coding", async () => {
  await using emu = await startEmulator({ files: FILES });
  emu.faults.respond = (_request, info) =>
    aimed(info) ? coded(info, "gzip", (bytes) => bytes) : undefined;
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    retry: { retries: 1, baseDelayMs: 1 },
  });
  await rejects(fs.ls(""), (error: Error) => {
    ok(
      error.message.includes('(an answer with Content-Encoding "gzip")'),
      error.message,
    );
    return true;
  });
});

Deno.test("the file lister lists a dataset's versions", async () => {
  await using emu = await startEmulator({
    files: { "a/b.txt": "x", "c.txt": "yz" },
    maxPageSize: 1,
  });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const lister = new FileLister(api, console);
  const table = await lister.list(
    emu.pid,
    ":latest",
    () => RoutingTable.builder(),
  );
  deepStrictEqual(table.find(""), ["a/b.txt", "c.txt"]);
  strictEqual(emu.counters.listingCalls, 2); // one page per file here
});

Deno.test("listed files are checked one by one", () => {
  const entries = [
    { directoryLabel: "d", dataFile: { id: 7, filename: "a.nc", filesize: 3 } },
    {
      restricted: true,
      dataFile: {
        id: 8,
        filename: "b.nc",
        filesize: 5,
        checksum: {
          type: "SHA-1",
          value: "a9993e364706816aba3e25717850c26c9cd0d89d",
        },
        embargo: { dateAvailable: "2999-01-01" },
      },
    },
  ];
  deepStrictEqual([...listedFiles(entries, "https://r.example/api")], [
    { path: "d/a.nc", id: 7, size: 3 },
    {
      path: "b.nc",
      id: 8,
      size: 5,
      checksum: {
        type: "SHA-1",
        value: "a9993e364706816aba3e25717850c26c9cd0d89d",
      },
      restricted: true,
      embargoedUntil: "2999-01-01",
    },
  ]);
});

Deno.test("a missing field is a RepoProtocolError", () => {
  deepStrictEqual(field({ data: [] }, "data", "https://r.example/api"), []);
  throws(() => field({}, "data", "https://r.example/api"), /has no "data"/);
});

Deno.test("an embargo is active until its day", () => {
  const now = new Date("2030-06-01T12:00:00Z");
  equal(embargoActive("2031-01-01", now), true);
  equal(embargoActive("2030-06-01", now), false);
});

Deno.test("an ingested file seen as its original", () => {
  const archival = {
    path: "d/t.tab",
    id: 8,
    size: 4,
    contentType: "text/tab-separated-values",
    tabular: true,
    original: { path: "d/t.csv", size: 9, contentType: "text/csv" },
  };
  deepStrictEqual(asOriginal(archival), {
    path: "d/t.csv",
    id: 8,
    size: 9,
    contentType: "text/csv",
    format: "original",
  });
});

import {
  deepStrictEqual,
  equal,
  strictEqual,
  throws,
} from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import {
  contentUrlProblem,
  DEFAULT_NAMES,
  errorDetail,
  failureFor,
  isRepositoryUrl,
  rateLimited,
  RepoApi,
  repositoryBase,
  repositoryHeaders,
  repositoryNames,
} from "../src/api/repo_api.ts";
import { RepoHttpError } from "../src/base/errors.ts";

Deno.test("a bare host means https, with /api", () => {
  strictEqual(
    repositoryBase("repo.example.org"),
    "https://repo.example.org/api",
  );
  strictEqual(
    repositoryBase("http://127.0.0.1:8080"),
    "http://127.0.0.1:8080/api",
  );
  throws(
    () => repositoryBase("http://repo.example.org", "secret"),
    /over plain http/,
  );
});

Deno.test("only URLs below the repository base get the token", () => {
  const base = "https://repo.example.org/api";
  strictEqual(
    isRepositoryUrl("https://repo.example.org/api/access/datafile/7", base),
    true,
  );
  strictEqual(isRepositoryUrl("https://s3.example/b/k", base), false);
  strictEqual(
    isRepositoryUrl("https://repo.example.org/api.evil.example/x", base),
    false,
  );
  strictEqual(
    isRepositoryUrl("https://repo.example.org/api/../other-app/x", base),
    false,
  );
});

Deno.test("content URLs are read over https only", () => {
  strictEqual(
    contentUrlProblem("https://s3.example/b/k", "https://repo.example.org/api"),
    undefined,
  );
  strictEqual(
    contentUrlProblem("file:///etc/passwd", "https://repo.example.org/api"),
    'its scheme is "file:"; content is read over https only',
  );
});

Deno.test("default names are X-Repo-key and repos", () => {
  strictEqual(DEFAULT_NAMES.tokenHeader, "X-Repo-key");
  strictEqual(DEFAULT_NAMES.collectionsPath, "repos");
});

Deno.test("repository names are checked, defaults filled in", () => {
  deepStrictEqual(repositoryNames({ collectionsPath: "dataverses" }), {
    tokenHeader: "X-Repo-key",
    collectionsPath: "dataverses",
  });
  throws(() => repositoryNames({ tokenHeader: "X Key" }), /tokenHeader/);
});

Deno.test("the token goes only in its header", () => {
  deepStrictEqual(repositoryHeaders(undefined), {});
  deepStrictEqual(repositoryHeaders("t", "X-Dataverse-key"), {
    "X-Dataverse-key": "t",
  });
});

Deno.test("a 429 after retries says the repository is busy", () => {
  const e = rateLimited(
    new RepoHttpError(429, "https://r.example/api/access/datafile/7"),
    { attempts: 6, waitedMs: 3210 },
  ) as Error;
  equal(
    e.message,
    "HTTP 429 from https://r.example/api/access/datafile/7: rate limited by the repository; gave up after 6 attempts and 3.2 s of backoff",
  );
});

Deno.test("errorDetail takes the server's own words", async () => {
  strictEqual(
    await errorDetail(
      new Response('{"status":"ERROR","message":"Bad API key"}'),
    ),
    "Bad API key",
  );
  strictEqual(
    await errorDetail(
      new Response("<Error><Message>Request has expired</Message></Error>"),
    ),
    "Request has expired",
  );
});

Deno.test("failureFor keeps the message and Retry-After", async () => {
  const e = await failureFor(
    new Response("{}", { status: 404 }),
    "https://r.example/api/x",
  );
  equal(e.status, 404);
});

Deno.test("RepoApi lists a version's files", async () => {
  await using emu = await startEmulator({ files: { "a/b.txt": "hi" } });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const files = [...await api.listFiles(emu.pid, ":latest")];
  strictEqual(files[0].path, "a/b.txt");
});

Deno.test("RepoApi.connect refuses a token over plain http", () => {
  strictEqual(
    RepoApi.connect({ host: "repo.example.org", timeoutMs: 1 }).base,
    "https://repo.example.org/api",
  );
  throws(
    () =>
      RepoApi.connect({
        host: "http://repo.example.org",
        token: "t",
        timeoutMs: 1,
      }),
    /plain http/,
  );
});

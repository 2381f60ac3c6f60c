import {
  deepStrictEqual,
  equal,
  match,
  ok,
  strictEqual,
} from "node:assert/strict";
import {
  RepoFs,
  RepoHttpError,
  RepoProtocolError,
  type SerializedRepoFs,
} from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { recordingLogger, shownForms, withStranger } from "./support.ts";
import { redirects } from "./emulator_faults.ts";
import {
  hideSecret,
  holdsSecret,
  httpTrimmed,
  redact,
  redactingLogger,
} from "../src/base/secrets.ts";

function assertHidden(error: unknown, secret: string): void {
  for (const text of shownForms(error)) ok(!text.includes(secret), text);
}

const NO_RETRY = { retries: 0, baseDelayMs: 1 };

Deno.test("a token with whitespace around it is hidden as fetch sends it, trimmed", async () => {
  const sent = "tok-padded-5566-aaaa";
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: {
      rules: [{
        route: "listing",
        status: 401,
        message: (request) =>
          `Bad API key ${request.headers.get("X-Repo-key")}`,
      }],
    },
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token: ` ${sent}\r\n`,
    retry: NO_RETRY,
  });
  const error = await fs.ls("").catch((e) => e);
  ok(error instanceof RepoHttpError && error.status === 401, String(error));
  match(error.message, /Bad API key \*\*\*/);
  assertHidden(error, sent);
});

Deno.test("a Retry-After that quotes the token is kept without it", async () => {
  const token = "tok-retry-after-7788";
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: {
      rules: [{
        route: "listing",
        status: 503,
        headers: { "retry-after": `0, key=${token}` },
      }],
    },
  });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token,
    retry: NO_RETRY,
  });
  const error = await fs.ls("").catch((e) => e);
  ok(error instanceof RepoHttpError && error.status === 503, String(error));
  equal(error.retryAfter, "0, key=***");
  assertHidden(error, token);
});

Deno.test("a token that JSON escapes is hidden where a message quotes it JSON-escaped", async () => {
  const token = 'tok"quote\\slash-5e4d3c';
  await withStranger(
    () => Response.json({ status: token, data: {} }),
    async (host) => {
      const fs = new RepoFs({ host, pid: "doi:10.5072/FK2/X", token });
      const error = await fs.ls("").catch((e) => e);
      ok(error instanceof RepoProtocolError, String(error));
      match(error.message, /status "\*\*\*"/);
      assertHidden(error, JSON.stringify(token).slice(1, -1));
      assertHidden(error, "quote");
    },
  );
});

Deno.test("log lines quoting a listing entry that holds the token are redacted", async () => {
  const token = "tok-in-a-listed-name-9911";
  await using emu = await startEmulator({
    entries: [
      { directoryLabel: "../evil", filename: token, file: "x" },
      { filename: "kept.txt", file: "kept" },
    ],
  });
  const logger = recordingLogger();
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, token, logger });
  deepStrictEqual(await fs.find(""), ["kept.txt"]);
  const warnings = logger.lines.filter((l) => l.level === "warn");
  equal(warnings.length, 1, "the entry left out is told");
  ok(warnings[0].msg.includes("../evil/***"), warnings[0].msg);
  for (const line of logger.lines) ok(!line.msg.includes(token), line.msg);
});

Deno.test("a content URL that holds the token, as given or percent-encoded, or a user name, is refused before any request", async () => {
  const token = "tok/for-the-location-4242";
  await using emu = await startEmulator({ files: { "a.bin": "abc" }, token });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    token,
    retry: NO_RETRY,
  });
  await fs.ls("");
  const refusals = [
    [`${emu.storeOrigin}/obj?key=${token}`, "it carries the API token"],
    [
      `${emu.storeOrigin}/obj?key=${encodeURIComponent(token)}`,
      "it carries the API token",
    ],
    [
      `${emu.storeOrigin}/obj?key=${encodeURIComponent(token).toLowerCase()}`,
      "it carries the API token",
    ],
    [
      emu.storeOrigin.replace("://", "://reader:pw@") + "/obj",
      "it carries a user name or password",
    ],
  ];
  for (const [location, problem] of refusals) {
    emu.faults.rules = [redirects(303, location)];
    emu.resetCounters();
    const error = await fs.catFile("a.bin").catch((e) => e);
    ok(error instanceof RepoProtocolError, String(error));
    ok(error.message.includes(problem), error.message);
    assertHidden(error, token);
    assertHidden(error, "reader:pw");
    equal(emu.counters.storeGets, 0, `nothing asked of ${location}`);
  }
});

Deno.test("the token goes only below the API base: a cached 'direct' URL leaving it through dot segments gets none", async () => {
  const token = "tok-dot-segments-3131";
  await using emu = await startEmulator({ files: { "a.bin": "abc" } });
  const source = new RepoFs({ host: emu.host, pid: emu.pid, token });
  await source.ls("");
  const id = (await source.info("a.bin")).id!;
  const asked: { path: string; token: string | null }[] = [];
  await withStranger(
    (request) => {
      asked.push({
        path: new URL(request.url).pathname,
        token: request.headers.get("x-repo-key"),
      });
      return new Response("abc");
    },
    async (host) => {
      const serialized = source.serialize() as SerializedRepoFs & {
        options: { host: string };
      };
      for (const escape of ["..", "%2e%2e", ".%2E"]) {
        asked.length = 0;
        const fs = RepoFs.fromSerialized({
          ...serialized,
          options: { ...serialized.options, host },
          urls: [[id, `${host}/api/${escape}/other-app/collect`, true]],
        });
        deepStrictEqual(
          new TextDecoder().decode(await fs.catFile("a.bin")),
          "abc",
        );
        deepStrictEqual(asked, [{ path: "/other-app/collect", token: null }]);
      }
    },
  );
});

Deno.test("a connection error's message and cause keep no credential of the URL, whatever follows it", async () => {
  await using emu = await startEmulator({ files: { "a.bin": "abc" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, retry: NO_RETRY });
  await fs.ls("");
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = closed.addr as Deno.NetAddr;
  closed.close();
  const signature = "0f1e2d3c4b5a69788796a5b4";
  emu.faults.rules = [
    redirects(
      303,
      `http://127.0.0.1:${port}/obj?response-content-disposition=a(1)&X-Amz-Signature=${signature}`,
    ),
  ];
  const error = await fs.catFile("a.bin").catch((e) => e);
  match(error.message, /connection refused/i);
  ok(error.cause instanceof Error, "the cause is kept, scrubbed");
  assertHidden(error, signature);
});

Deno.test("hideSecret hides a secret", () => {
  hideSecret("s3cret-for-the-example");
  strictEqual(redact("Bad API key s3cret-for-the-example"), "Bad API key ***");
});

Deno.test("httpTrimmed trims HTTP whitespace", () => {
  strictEqual(httpTrimmed(" tok-1\r\n"), "tok-1");
  strictEqual(httpTrimmed("tok\u00a0"), "tok\u00a0"); // not HTTP whitespace
});

Deno.test("redact blanks hidden secrets", () => {
  equal(redact("nothing secret here"), "nothing secret here");
});

Deno.test("the redacting logger redacts each line", () => {
  hideSecret("tok-for-the-logger-example");
  const lines: string[] = [];
  const logger = redactingLogger({
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
  });
  logger.warn('Listing entry "../tok-for-the-logger-example" left out');
  deepStrictEqual(lines, ['Listing entry "../***" left out']);
});

Deno.test("holdsSecret finds secrets, percent-encoded too", () => {
  hideSecret("tok/en-for-the-example");
  strictEqual(
    holdsSecret("https://s3.example/b/k?key=tok%2fen-for-the-example"),
    true,
  );
  strictEqual(holdsSecret("https://s3.example/b/k"), false);
});

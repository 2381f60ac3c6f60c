import { equal, ok, rejects } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoConnectionError, RepoFs } from "../mod.ts";
import { recordingLogger, runCli } from "./support.ts";

const PID = "doi:10.5072/FK2/EMULATED";

/** The real fetch, counting the requests it is given. */
function countingFetch() {
  const counted = {
    calls: 0,
    fetch: ((input, init) => {
      counted.calls++;
      return fetch(input, init);
    }) as typeof fetch,
  };
  return counted;
}

/** A loopback port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  return port;
}

Deno.test("a name that does not resolve is tried once and said in one line", async () => {
  const counted = countingFetch();
  const logger = recordingLogger();
  const fs = new RepoFs({
    host: "https://repo-fs-test.invalid",
    pid: PID,
    fetch: counted.fetch,
    logger,
  });
  await rejects(fs.ls(""), (error: Error) => {
    ok(error instanceof RepoConnectionError);
    equal(
      error.message,
      "Request to https://repo-fs-test.invalid failed: the name repo-fs-test.invalid does not resolve (DNS lookup failed); 1 attempt made",
    );
    return true;
  });
  equal(counted.calls, 1);
  equal(logger.lines.filter((l) => l.msg.startsWith("retry")).length, 0);
});

Deno.test("a refused connection to a host that never answered is tried twice", async () => {
  const port = closedPort();
  const counted = countingFetch();
  const fs = new RepoFs({
    host: `http://127.0.0.1:${port}`,
    pid: PID,
    fetch: counted.fetch,
    retry: { baseDelayMs: 1 },
  });
  await rejects(fs.ls(""), (error: Error) => {
    ok(error instanceof RepoConnectionError);
    equal(
      error.message,
      `Request to http://127.0.0.1:${port} failed: nothing accepts connections at 127.0.0.1:${port} (connection refused); 2 attempts made`,
    );
    return true;
  });
  equal(counted.calls, 2);
});

Deno.test("a refusal from a host that answered the instance before is retried as usual", async () => {
  // A server answering 404 and closing each connection: once it is gone,
  // nothing keeps a connection to it alive.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const host = `http://127.0.0.1:${listener.addr.port}`;
  const serving = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(65536));
      await conn.write(
        new TextEncoder().encode(
          "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ),
      );
      conn.close();
    }
  })();
  const counted = countingFetch();
  const fs = new RepoFs({
    host,
    pid: PID,
    fetch: counted.fetch,
    retry: { retries: 3, baseDelayMs: 1 },
  });
  await rejects(fs.ls(""), /HTTP 404/);
  listener.close();
  await serving;
  const before = counted.calls;
  await rejects(fs.ls(""), /connection refused\); 4 attempts made/);
  equal(counted.calls - before, 4);
  // What answered one instance is its own: another has not seen the host.
  const other = new RepoFs({ host, pid: PID, retry: { baseDelayMs: 1 } });
  await rejects(other.ls(""), /connection refused\); 2 attempts made/);
});

Deno.test("a TLS failure is tried once and said in one line", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("plain http"),
  );
  try {
    const counted = countingFetch();
    const host = `127.0.0.1:${server.addr.port}`;
    const fs = new RepoFs({ host, pid: PID, fetch: counted.fetch });
    await rejects(
      fs.ls(""),
      new RegExp(
        `^RepoConnectionError: Request to https://${host} failed: the https \\(TLS\\) handshake with ${host} failed; 1 attempt made$`,
      ),
    );
    equal(counted.calls, 1);
  } finally {
    await server.shutdown();
  }
});

Deno.test("the command line: one line for a DNS failure; --verbose shows each retry and its wait", async () => {
  const dns = await runCli([
    "--host",
    "https://repo-fs-test.invalid",
    "--pid",
    PID,
    "ls",
  ]);
  equal(dns.code, 1);
  equal(
    dns.stderr,
    "repo-fs: Request to https://repo-fs-test.invalid failed: the name repo-fs-test.invalid does not resolve (DNS lookup failed); 1 attempt made\n",
  );

  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    faults: { rules: [{ route: "listing", status: 503, times: 2 }] },
  });
  const run = await runCli([
    "--host",
    emu.host,
    "--pid",
    emu.pid,
    "--verbose",
    "--retries",
    "3",
    "ls",
  ]);
  equal(run.code, 0, run.stderr);
  const retries = run.stderr.split("\n").filter((line) =>
    line.startsWith("info: retry ")
  );
  equal(retries.length, 2, run.stderr);
  ok(/^info: retry 1 of 3 in \d+\.\d s after: HTTP 503 /.test(retries[0]));
  ok(retries[1].startsWith("info: retry 2 of 3 in "), retries[1]);
});

Deno.test("a 401 says whether a token was sent and, if none was, how to give one", async () => {
  await using emu = await startEmulator({
    files: { "a.txt": "a" },
    token: "right",
  });
  const target = ["--host", emu.host, "--pid", emu.pid, "ls"];
  const [none, wrong] = await Promise.all([
    runCli(target),
    runCli(target, { REPO_API_TOKEN: "wrong" }),
  ]);
  equal(none.code, 1);
  ok(
    none.stderr.endsWith(
      ": Bad API key (no API token was sent; give one with REPO_FS_TOKEN or --token-file F)\n",
    ),
    none.stderr,
  );
  equal(wrong.code, 1);
  ok(
    wrong.stderr.endsWith(
      ": Bad API key (an API token was sent in X-Repo-key; Dataverse installations read it from X-Dataverse-key: add --token-header X-Dataverse-key (or REPO_FS_TOKEN_HEADER=X-Dataverse-key); check that it is current and has access)\n",
    ),
    wrong.stderr,
  );
  ok(!wrong.stderr.includes("wrong"), "the token is not shown");
});

Deno.test("a port fetch refuses to connect to is tried once", async () => {
  const counted = countingFetch();
  const fs = new RepoFs({
    host: "http://127.0.0.1:9",
    pid: PID,
    fetch: counted.fetch,
  });
  await rejects(
    fs.ls(""),
    /^RepoConnectionError: Request to http:\/\/127\.0\.0\.1:9 failed: fetch refuses the port of 127\.0\.0\.1:9 \(a port browsers block\); 1 attempt made$/,
  );
  equal(counted.calls, 1);
});

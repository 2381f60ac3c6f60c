/**
 * A token set once: `REPO_FS_TOKEN` and `REPO_FS_TOKEN_HEADER` against
 * `emulate --token-header X-Dataverse-key --token T`, which expects the
 * token in that header; a flag wins over the environment; a refused token
 * names the header it went in, and Dataverse's when that is another.
 */

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { emulateCli, runCli } from "./support.ts";

const TOKEN = "T-0123456789";

Deno.test("REPO_FS_TOKEN and REPO_FS_TOKEN_HEADER reach emulate --token-header X-Dataverse-key; a flag wins; a refusal names the header", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "data"));
    await Deno.writeTextFile(join(dir, "data", "a.txt"), "a");
    await Deno.writeTextFile(join(dir, "token.txt"), `${TOKEN}\n`);
    const served = await emulateCli([
      join(dir, "data"),
      "--token-header",
      "X-Dataverse-key",
      "--token",
      TOKEN,
    ]);
    let stopped = false;
    try {
      ok(served.text.includes("--token value in X-Dataverse-key"), served.text);
      ok(served.text.includes("REPO_FS_TOKEN_HEADER=X-Dataverse-key"));
      const host = served.text.match(/repository: +(http\S+)/)?.[1];
      const pid = served.text.match(/--pid (\S+)/)?.[1];
      ok(host && pid, served.text);
      const ls = ["--host", host, "--pid", pid, "ls"];
      const dataverse = "X-Dataverse-key";
      const [set, header, flagWins, fileWins, newWins, wrong] = await Promise
        .all([
          runCli(ls, { REPO_FS_TOKEN: TOKEN, REPO_FS_TOKEN_HEADER: dataverse }),
          runCli(ls, { REPO_FS_TOKEN: TOKEN }),
          runCli(["--token-header", "X-Repo-key", ...ls], {
            REPO_FS_TOKEN: TOKEN,
            REPO_FS_TOKEN_HEADER: dataverse,
          }),
          runCli(["--token-file", join(dir, "token.txt"), ...ls], {
            REPO_FS_TOKEN: "wrong",
            REPO_FS_TOKEN_HEADER: dataverse,
          }),
          runCli(ls, {
            REPO_FS_TOKEN: TOKEN,
            REPO_API_TOKEN: "wrong",
            REPO_FS_TOKEN_HEADER: dataverse,
          }),
          runCli(ls, {
            REPO_FS_TOKEN: "wrong",
            REPO_FS_TOKEN_HEADER: dataverse,
          }),
        ]);
      equal(set.code, 0, set.stderr);
      ok(set.stdout.endsWith("  a.txt\n"), set.stdout);
      const elsewhere =
        "(an API token was sent in X-Repo-key; Dataverse installations read it from X-Dataverse-key: add --token-header X-Dataverse-key (or REPO_FS_TOKEN_HEADER=X-Dataverse-key); check that it is current and has access)\n";
      for (const refused of [header, flagWins]) {
        equal(refused.code, 1);
        ok(
          refused.stderr.startsWith("repo-fs: HTTP 401 from ") &&
            refused.stderr.endsWith(`: Bad API key ${elsewhere}`),
          refused.stderr,
        );
        ok(!refused.stderr.includes(TOKEN), "the token is not shown");
      }
      equal(fileWins.code, 0, fileWins.stderr);
      equal(newWins.code, 0, newWins.stderr);
      equal(wrong.code, 1);
      ok(
        wrong.stderr.endsWith(
          ": Bad API key (an API token was sent in X-Dataverse-key; check that it is current and has access)\n",
        ),
        wrong.stderr,
      );
      const { code, stderr } = await served.stop();
      stopped = true;
      equal(code, 0);
      equal(stderr, "Emulator stopped.\n");
    } finally {
      if (!stopped) await served.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("emulate --latency-ms prints no legacy-abort warning while it answers", async () => {
  const served = await emulateCli(["--sample", "--latency-ms", "5"]);
  const dataset = served.text.match(/--dataset '([^']+)'/)?.[1];
  try {
    ok(dataset, served.text);
    const cat = await runCli(["--dataset", dataset, "cat", "README.md"]);
    equal(cat.code, 0, cat.stderr);
    ok(cat.stdout.startsWith("# Sample climate dataset"), cat.stdout);
  } finally {
    const { stderr } = await served.stop();
    equal(stderr, "Emulator stopped.\n");
  }
});

Deno.test("get's line for a file refused 403 with a token names the header it went in, and Dataverse's when that is another", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const refused =
      ": Not authorized to access this object via this API endpoint. (the file is restricted; the API token sent has no access)";
    for (
      const [header, hint] of [
        [
          "X-Repo-key",
          "; Dataverse installations read it from X-Dataverse-key: add --token-header X-Dataverse-key (or REPO_FS_TOKEN_HEADER=X-Dataverse-key)",
        ],
        ["X-Dataverse-key", ""],
      ]
    ) {
      await using emu = await startEmulator({
        files: {
          "a.txt": "a",
          "locked.bin": { content: "x", restricted: true },
        },
        token: TOKEN,
        tokenHeader: header,
      });
      const out = join(dir, header);
      const run = await runCli(
        ["--host", emu.host, "--pid", emu.pid, "get", "**", "--out", out],
        { REPO_FS_TOKEN: TOKEN, REPO_FS_TOKEN_HEADER: header },
      );
      equal(run.code, 1, run.stderr);
      const line = run.stderr.split("\n").find((l) => l.includes("locked.bin"));
      ok(
        line?.startsWith('repo-fs: failed "locked.bin": HTTP 403 from ') &&
          line.endsWith(
            `${refused} (sent in ${header}${hint})`,
          ),
        run.stderr,
      );
      ok(!run.stderr.includes(TOKEN), "the token is not shown");
      deepStrictEqual([...Deno.readDirSync(out)].map((e) => e.name), ["a.txt"]);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

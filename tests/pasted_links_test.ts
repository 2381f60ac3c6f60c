/**
 * Every dataset link users paste, each listing the same root as
 * `new RepoFs({ host, pid })`: the dataset page with `;jsessionid=` and the
 * page's own search parameters, an empty and a given `version`, the
 * citation page, a file page, and DOIs and Handles resolved through a
 * resolver served here, which never receives the token.
 */

import { deepStrictEqual, equal, ok, rejects } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoFs, RepoProtocolError } from "../mod.ts";
import { parseDatasetUrl } from "../src/api/dataset_url.ts";
import { runCli, withStranger } from "./support.ts";

const TOKEN = "s3cret-token";
const SEARCH =
  "&version=&q=&fileTypeGroupFacet=&fileAccess=&tagPresort=false&folderPresort=true";

/** A resolver that redirects each known id to its page and records what it was sent. */
function resolver(pages: Record<string, string>) {
  const seen: { path: string; headers: [string, string][] }[] = [];
  const handler = (request: Request) => {
    const path = decodeURIComponent(new URL(request.url).pathname.slice(1));
    seen.push({ path, headers: [...request.headers] });
    const page = pages[path];
    return page === undefined
      ? new Response("DOI not found", { status: 404 })
      : new Response(null, { status: 302, headers: { location: page } });
  };
  return { seen, handler };
}

const names = async (fs: RepoFs) => (await fs.ls("")).map((e) => e.name);

Deno.test("parseDatasetUrl ignores ;jsessionid= and the page's search parameters; an empty version is the latest", () => {
  const pid = "doi:10.7910/DVN/ABCDEF";
  deepStrictEqual(
    parseDatasetUrl(
      `https://dataverse.harvard.edu/dataset.xhtml;jsessionid=8a7b6c5d?persistentId=${pid}${SEARCH}`,
    ),
    { host: "https://dataverse.harvard.edu", pid },
  );
  deepStrictEqual(
    parseDatasetUrl(
      `https://dataverse.harvard.edu/dataset.xhtml?persistentId=${pid}&version=2.1&q=rain`,
    ),
    { host: "https://dataverse.harvard.edu", pid, version: "2.1" },
  );
  deepStrictEqual(
    parseDatasetUrl(`https://repo.example.org/dv/citation?persistentId=${pid}`),
    { host: "https://repo.example.org/dv", pid },
  );
  deepStrictEqual(
    parseDatasetUrl(
      `https://repo.example.org/file.xhtml;jsessionid=x?persistentId=${pid}/F1&version=`,
    ),
    { host: "https://repo.example.org", filePid: `${pid}/F1` },
  );
});

Deno.test("RepoFs.fromUrl: every pasted form lists the same root as new RepoFs({ host, pid }); the resolver gets no token", async () => {
  await using emu = await startEmulator({
    files: { "tables/a.csv": "a", "b.txt": "bee" },
    versions: { "1.0": { "old.txt": "old" } },
    filePids: true,
    token: TOKEN,
  });
  await using handle = await startEmulator({
    files: { "h.txt": "h" },
    pid: "hdl:1902.1/00042",
  });
  const options = { token: TOKEN };
  const expected = await names(
    new RepoFs({ host: emu.host, pid: emu.pid, ...options }),
  );
  const page = `${emu.host}/dataset.xhtml?persistentId=${emu.pid}`;
  const { seen, handler } = resolver({
    "10.5072/FK2/EMULATED": `${emu.host}/citation?persistentId=${emu.pid}`,
    "1902.1/00042":
      `${handle.host}/dataset.xhtml?persistentId=hdl:1902.1/00042`,
  });
  await withStranger(handler, async (origin) => {
    const withResolver = { ...options, resolver: `${origin}/` };
    for (
      const url of [
        `${emu.host}/dataset.xhtml;jsessionid=8A7B6C5D4E?persistentId=${emu.pid}`,
        `${page}${SEARCH}`,
        `${emu.host}/citation?persistentId=${emu.pid}`,
        `${emu.host}/file.xhtml?fileId=${emu.fileId("b.txt")}&version=`,
        "https://doi.org/10.5072/FK2/EMULATED",
        "doi:10.5072/FK2/EMULATED",
        "10.5072/FK2/EMULATED",
      ]
    ) {
      const fs = await RepoFs.fromUrl(url, withResolver);
      equal(fs.host, emu.host, url);
      equal(fs.pid, emu.pid, url);
      equal(fs.version, ":latest", url);
      deepStrictEqual(await names(fs), expected, url);
    }
    const versioned = await RepoFs.fromUrl(
      `${page}&version=1.0&q=&fileAccess=`,
      options,
    );
    const one = { host: emu.host, pid: emu.pid, version: "1.0" };
    deepStrictEqual(
      await names(versioned),
      await names(new RepoFs({ ...options, ...one })),
    );
    deepStrictEqual(await names(versioned), ["old.txt"]);
    for (
      const url of ["https://hdl.handle.net/1902.1/00042", "hdl:1902.1/00042"]
    ) {
      const fs = await RepoFs.fromUrl(url, { resolver: origin });
      deepStrictEqual(
        await names(fs),
        await names(new RepoFs({ host: handle.host, pid: handle.pid })),
      );
    }
    await rejects(
      RepoFs.fromUrl("doi:10.5072/FK2/NOWHERE", withResolver),
      (error: Error) =>
        error instanceof RepoProtocolError &&
        error.message.includes(
          "does not know doi:10.5072/FK2/NOWHERE; check the id, or give the dataset's page URL",
        ),
    );
  });
  equal(seen.length, 6);
  deepStrictEqual(seen.map((s) => s.path).slice(0, 3), [
    "10.5072/FK2/EMULATED",
    "10.5072/FK2/EMULATED",
    "10.5072/FK2/EMULATED",
  ]);
  for (const { headers } of seen) {
    ok(
      headers.every(([name, value]) =>
        name !== "x-repo-key" && !value.includes(TOKEN)
      ),
      JSON.stringify(headers),
    );
  }
});

Deno.test("a resolver that sends elsewhere, or a form that is not a link, says which forms work", async () => {
  await withStranger(
    () =>
      new Response(null, {
        status: 302,
        headers: { location: "https://journal.example.org/article/42" },
      }),
    async (origin) => {
      await rejects(
        RepoFs.fromUrl("doi:10.1234/paper", { resolver: origin }),
        (error: Error) =>
          error instanceof TypeError &&
          error.message.startsWith(
            `doi:10.1234/paper resolves (through ${origin}) to https://journal.example.org/article/42, which is not a dataset page; give the dataset's page URL`,
          ),
      );
    },
  );
  await rejects(
    RepoFs.fromUrl("doi:10.1234/x", { resolver: "doi.org" }),
    /resolver must be an http or https URL/,
  );
  await rejects(
    RepoFs.fromUrl("https://repo.example.org/dataverse/root"),
    /not a dataset URL: "https:\/\/repo\.example\.org\/dataverse\/root" \(a collection's page: its datasets are listed by listCollection, or the command datasets root\); give .*citation page .*a DOI or Handle \(https:\/\/doi\.org\/10\./,
  );
});

Deno.test("--dataset takes a DOI through --resolver or REPO_FS_RESOLVER, and a jsessionid page; the resolver gets no token", async () => {
  await using emu = await startEmulator({
    files: { "tables/a.csv": "a", "b.txt": "bee" },
    token: TOKEN,
  });
  const env = { REPO_FS_TOKEN: TOKEN };
  const plain = await runCli(["--host", emu.host, "--pid", emu.pid, "ls"], env);
  equal(plain.code, 0, plain.stderr);
  const { seen, handler } = resolver({
    "10.5072/FK2/EMULATED": `${emu.host}/citation?persistentId=${emu.pid}`,
  });
  await withStranger(handler, async (origin) => {
    const runs = await Promise.all([
      runCli(
        ["--dataset", "https://doi.org/10.5072/FK2/EMULATED", "ls"],
        { ...env, REPO_FS_RESOLVER: origin },
      ),
      runCli([
        "ls",
        "--resolver",
        origin,
        "--dataset",
        "doi:10.5072/FK2/EMULATED",
      ], { ...env, REPO_FS_RESOLVER: "http://127.0.0.1:9/unused" }),
      runCli([
        "--dataset",
        `${emu.host}/dataset.xhtml;jsessionid=AB12?persistentId=${emu.pid}${SEARCH}`,
        "ls",
      ], env),
    ]);
    for (const run of runs) equal(run.stdout, plain.stdout, run.stderr);
    const unknown = await runCli(
      ["--dataset", "doi:10.5072/FK2/NONE", "--resolver", origin, "ls"],
      env,
    );
    equal(unknown.code, 1);
    ok(unknown.stderr.includes("does not know doi:10.5072/FK2/NONE"));
  });
  equal(seen.length, 3);
  ok(seen.every(({ headers }) => !JSON.stringify(headers).includes(TOKEN)));
  const pidOnly = await runCli(["--pid", "https://doi.org/10.5072/X", "ls"]);
  equal(pidOnly.code, 2);
  ok(
    pidOnly.stderr.includes(
      "or give the id alone as --dataset https://doi.org/10.5072/X",
    ),
    pidOnly.stderr,
  );
  const noHost = await runCli([
    "--dataset",
    "doi:10.5072/X",
    "datasets",
    "root",
  ]);
  equal(noHost.code, 2);
  ok(noHost.stderr.includes("datasets needs --host"), noHost.stderr);
});

import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import { parseDatasetUrl } from "../src/api/dataset_url.ts";
import { runCli } from "./support.ts";
import { normalizePid } from "../src/api/pid.ts";

const PID = "doi:10.5072/FK2/EMULATED";

Deno.test("parseDatasetUrl reads the pasted forms, keeping scheme, port, path prefix and version", () => {
  deepStrictEqual(
    parseDatasetUrl(
      "https://dataverse.harvard.edu/dataset.xhtml?persistentId=doi:10.7910/DVN/XXXX&version=2.1",
    ),
    {
      host: "https://dataverse.harvard.edu",
      pid: "doi:10.7910/DVN/XXXX",
      version: "2.1",
    },
  );
  deepStrictEqual(
    parseDatasetUrl(
      "http://127.0.0.1:8080/dv/dataset.xhtml?persistentId=doi:10.5072/FK2/A&version=DRAFT",
    ),
    {
      host: "http://127.0.0.1:8080/dv",
      pid: "doi:10.5072/FK2/A",
      version: ":draft",
    },
  );
  deepStrictEqual(
    parseDatasetUrl(
      "https://repo.example.org/api/datasets/:persistentId/?persistentId=hdl:1902.1/111",
    ),
    { host: "https://repo.example.org", pid: "hdl:1902.1/111" },
  );
  deepStrictEqual(
    parseDatasetUrl(
      "https://repo.example.org/api/datasets/:persistentId/versions/1.0/files?persistentId=doi:10.5072/X/Y",
    ),
    {
      host: "https://repo.example.org",
      pid: "doi:10.5072/X/Y",
      version: "1.0",
    },
  );
  deepStrictEqual(
    parseDatasetUrl(
      "https://repo.example.org/file.xhtml?persistentId=doi:10.5072/X/Y/ABCDEF&version=1.0",
    ),
    {
      host: "https://repo.example.org",
      filePid: "doi:10.5072/X/Y/ABCDEF",
      version: "1.0",
    },
  );
  deepStrictEqual(
    parseDatasetUrl("https://repo.example.org/file.xhtml?fileId=1234"),
    { host: "https://repo.example.org", fileId: "1234" },
  );
  deepStrictEqual(
    parseDatasetUrl("https://repo.example.org/api/files/1234"),
    { host: "https://repo.example.org", fileId: "1234" },
  );
  throws(
    () => parseDatasetUrl("https://repo.example.org/dataverse/root"),
    /not a dataset URL: .*dataset\.xhtml/,
  );
  throws(() => parseDatasetUrl("repo.example.org"), /not a dataset URL/);
  throws(
    () => parseDatasetUrl("https://repo.example.org/dataset.xhtml?id=3"),
    /no persistentId/,
  );
});

Deno.test("RepoFs.fromUrl takes the dataset page (with its version), the API URL and both file pages", async () => {
  await using emu = await startEmulator({
    files: { "data/a.txt": "new", "b.txt": "bee" },
    versions: { "1.0": { "data/a.txt": "old" } },
    filePids: true,
  });
  const text = async (fs: RepoFs, path: string) =>
    new TextDecoder().decode(await fs.catFile(path));

  const page = await RepoFs.fromUrl(
    `${emu.host}/dataset.xhtml?persistentId=${emu.pid}&version=1.0`,
  );
  equal(page.version, "1.0");
  equal(await text(page, "data/a.txt"), "old");

  const api = await RepoFs.fromUrl(
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  );
  equal(api.version, ":latest");
  equal(await text(api, "data/a.txt"), "new");

  const pinned = await RepoFs.fromUrl(
    `${emu.host}/dataset.xhtml?persistentId=${emu.pid}&version=1.0`,
    { version: ":latest" },
  );
  equal(pinned.version, ":latest");

  const { persistentId } = (await (await fetch(
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  )).json()).data.latestVersion.files.find((f: { label: string }) =>
    f.label === "b.txt"
  ).dataFile;
  const byPid = await RepoFs.fromUrl(
    `${emu.host}/file.xhtml?persistentId=${persistentId}`,
  );
  equal(byPid.pid, emu.pid);
  equal(await text(byPid, "b.txt"), "bee");

  const byId = await RepoFs.fromUrl(
    `${emu.host}/file.xhtml?fileId=${emu.fileId("data/a.txt")}`,
  );
  equal(byId.pid, emu.pid);
  equal(byId.host, emu.host);
});

Deno.test("--dataset takes each URL form; a file page selects the file for cat and get", async () => {
  await using emu = await startEmulator({
    files: { "data/a.txt": "new", "b.txt": "bee" },
    versions: { "1.0": { "data/a.txt": "old" } },
    filePids: true,
  });
  const page = `${emu.host}/dataset.xhtml?persistentId=${emu.pid}`;
  const ls = await runCli(["--dataset", page, "find"]);
  equal(ls.stdout, "b.txt\ndata/a.txt\n", ls.stderr);

  const old = await runCli([
    "--dataset",
    `${page}&version=1.0`,
    "cat",
    "data/a.txt",
  ]);
  equal(old.stdout, "old", old.stderr);

  const api = await runCli([
    "cat",
    "b.txt",
    "--dataset",
    `${emu.host}/api/datasets/:persistentId/?persistentId=${emu.pid}`,
  ]);
  equal(api.stdout, "bee", api.stderr);

  const filePage = `${emu.host}/file.xhtml?fileId=${emu.fileId("data/a.txt")}`;
  const cat = await runCli(["--dataset", filePage, "cat"]);
  equal(cat.stdout, "new", cat.stderr);

  const tmp = await Deno.makeTempDir();
  try {
    const get = await runCli(["--dataset", filePage, "get", "--out", tmp]);
    equal(get.code, 0, get.stderr);
    equal(await Deno.readTextFile(join(tmp, "data/a.txt")), "new");
    equal((await Array.fromAsync(Deno.readDir(tmp))).length, 1);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }

  const both = await runCli(["--dataset", page, "--host", emu.host, "ls"]);
  equal(both.code, 2);
  ok(both.stderr.includes("not both"), both.stderr);
  const bad = await runCli(["--dataset", `${emu.host}/dataverse/root`, "ls"]);
  equal(bad.code, 2);
  ok(bad.stderr.includes("not a dataset URL"), bad.stderr);
});

Deno.test("REPO_FS_DATASET, REPO_FS_HOST and REPO_FS_PID name the dataset; the command line wins", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const page = `${emu.host}/dataset.xhtml?persistentId=${emu.pid}`;
  const fromUrl = await runCli(["cat", "a.txt"], { REPO_FS_DATASET: page });
  equal(fromUrl.stdout, "hello", fromUrl.stderr);
  const fromPair = await runCli(["cat", "a.txt"], {
    REPO_FS_HOST: emu.host,
    REPO_FS_PID: emu.pid,
  });
  equal(fromPair.stdout, "hello", fromPair.stderr);
  const wins = await runCli(["--pid", emu.pid, "cat", "a.txt"], {
    REPO_FS_HOST: emu.host,
    REPO_FS_PID: PID.replace("EMULATED", "OTHER"),
  });
  equal(wins.stdout, "hello", wins.stderr);
  const none = await runCli(["ls"]);
  equal(none.code, 2);
  ok(none.stderr.includes("REPO_FS_DATASET"), none.stderr);
});

Deno.test("a --host without a scheme that is loopback or has a port gets a hint", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const bare = emu.host.replace("http://", "");
  const run = await runCli([
    "--host",
    bare,
    "--pid",
    emu.pid,
    "ls",
    "--retries",
    "0",
  ]);
  equal(run.code, 1);
  ok(
    run.stderr.trimEnd().endsWith(`did you mean http://${bare}?`),
    run.stderr,
  );
  equal(run.stderr.trim().split("\n").length, 1, run.stderr);
});

Deno.test("a pid's scheme is lower-cased", () => {
  equal(normalizePid("DOI:10.5072/FK2/AbC"), "doi:10.5072/FK2/AbC");
  equal(normalizePid("10.5072/FK2/ABC"), "doi:10.5072/FK2/ABC");
  equal(normalizePid("https://doi.org/10.5072/FK2/ABC"), "doi:10.5072/FK2/ABC");
  equal(
    normalizePid("http://dx.doi.org/10.5072%2FFK2%2FABC"),
    "doi:10.5072/FK2/ABC",
  );
  equal(
    normalizePid("https://hdl.handle.net/1902.1/00097-8"),
    "hdl:1902.1/00097-8",
  );
  equal(normalizePid("perma:ABC123"), "perma:ABC123");
  throws(() => normalizePid("doi:10.5072"), /"doi:10\.5072"/);
});

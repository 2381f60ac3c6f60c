// Behaviour of src/repo_fs.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { startEmulator } from "../../emulator.ts";
import { INTERNALS, RepoFs, sharingUrls } from "../../src/repo_fs.ts";

Deno.test("sharingUrls: A `RepoFs` rebuilt from `serialized` that takes every content URL from `urls` instead of…", () => {
  const main = new RepoFs({
    host: "repo.example.org",
    pid: "doi:10.5072/FK2/ABC",
  });
  const worker = sharingUrls(main.serialize(), main[INTERNALS].urls);
  strictEqual(worker[INTERNALS].urls, main[INTERNALS].urls);
});

Deno.test("INTERNALS.urls: Where a `RepoFs` gets its content URLs: a pool's main thread answers its workers' asks through it", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });

  const id = emu.fileId("a.txt");
  const { url } = await fs[INTERNALS].urls.resolve({ id });
  strictEqual(url, await fs.resolveDownloadUrl(id)); // the same cache
  strictEqual(emu.counters.heads, 1);
});

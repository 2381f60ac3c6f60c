import { deepStrictEqual, equal, match, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import { RepoFs } from "../mod.ts";
import {
  fetchHidesRedirects,
  hiddenRedirectError,
  isHiddenRedirect,
} from "../src/api/hidden_redirects.ts";

const FILES = {
  "a.txt": "aaa",
  "b.txt": "bbb",
  "c.txt": "ccc",
  "d.txt": "ddd",
};
const TOKEN = "access-redirect-token-0815";
const decoder = new TextDecoder();

async function readAll(fs: RepoFs): Promise<void> {
  for (const [name, text] of Object.entries(FILES)) {
    equal(decoder.decode(await fs.catFile(name)), text);
  }
}

Deno.test("a relative Location is resolved against the access URL: to the repository it takes the token, to the store it does not", async () => {
  await using emu = await startEmulator({ files: FILES, token: TOKEN });
  const ids = Object.keys(FILES).map((name) => emu.fileId(name));
  // a.txt, b.txt: back to the repository, which serves the bytes itself
  // (and wants the token); c.txt, d.txt: to the store, without a scheme.
  const relative: Record<number, (location: URL) => string> = {
    [ids[0]]: () => `${ids[0]}?gbrecs=true`,
    [ids[1]]: () => `/api/access/datafile/${ids[1]}?gbrecs=true`,
    [ids[2]]: (location) =>
      `//${location.host}${location.pathname}${location.search}`,
    [ids[3]]: (location) =>
      `//${location.host}${location.pathname}${location.search}`,
  };
  const repositoryGets: string[] = [];
  emu.faults.respond = async (request, info) => {
    if (info.origin !== "repository") return undefined;
    if (info.route === "content") {
      repositoryGets.push(new URL(request.url).search);
      emu.faults.redirect = false;
      try {
        return await info.next();
      } finally {
        emu.faults.redirect = true;
      }
    }
    if (info.route !== "head") return undefined;
    const answer = await info.next();
    const location = new URL(answer.headers.get("location")!);
    return new Response(null, {
      status: 302,
      headers: { location: relative[info.fileId!](location) },
    });
  };
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: TOKEN });
  await readAll(fs);
  deepStrictEqual(repositoryGets, ["?gbrecs=true", "?gbrecs=true"]);
  equal(emu.counters.storeGets, 2);
  equal(emu.counters.storeRequestsWithToken, 0);
});

for (const status of [405, 501]) {
  Deno.test(`a HEAD answered ${status}: one ranged GET per file instead, the HEAD not tried again`, async () => {
    await using emu = await startEmulator({ files: FILES, token: TOKEN });
    let heads = 0;
    const ranges: (string | null)[] = [];
    emu.faults.respond = (request, info) => {
      if (info.origin !== "repository") return undefined;
      if (info.route === "head") {
        heads++;
        return new Response(null, { status });
      }
      if (info.route === "content") ranges.push(request.headers.get("range"));
      return undefined;
    };
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: TOKEN });
    await readAll(fs);
    equal(heads, 1);
    deepStrictEqual(ranges, Object.keys(FILES).map(() => "bytes=0-0"));
    equal(emu.counters.storeGets, 4);
    equal(emu.counters.storeRequestsWithToken, 0);
  });
}

Deno.test("a HEAD answered 405 by a repository that serves the bytes itself: its ranged GET's 206 makes the access URL the content URL", async () => {
  await using emu = await startEmulator({
    files: FILES,
    faults: { redirect: false },
  });
  emu.faults.respond = (_request, info) =>
    info.route === "head" ? new Response(null, { status: 405 }) : undefined;
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await readAll(fs);
  equal(emu.counters.accessGets, 8); // a byte to resolve, then the file
  equal(emu.counters.storeGets, 0);
});

Deno.test("fetch hides redirects only in a browser", () => {
  strictEqual(fetchHidesRedirects(), false); // Deno
  strictEqual(fetchHidesRedirects({ document: {} }), true); // a page
  strictEqual(fetchHidesRedirects({ WorkerGlobalScope: class {} }), true); // a page's worker
  strictEqual(
    fetchHidesRedirects({ WorkerGlobalScope: class {}, Deno: {} }),
    false,
  ); // a Deno worker
});

Deno.test("an opaque redirect is a hidden redirect", () => {
  strictEqual(isHiddenRedirect(new Response(null, { status: 303 })), false);
});

Deno.test("a hidden redirect's error names the file", () => {
  const error = hiddenRedirectError(
    "https://repo.example.org/api/access/datafile/7",
  );
  match(error.message, /serves the bytes itself/);
});

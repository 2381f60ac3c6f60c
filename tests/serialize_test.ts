import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { RepoFs, type SerializedRepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { checkSerialized } from "../src/serialize.ts";
import { INTERNALS, sharingUrls } from "../src/repo_fs.ts";
import { patterned } from "./support.ts";

const FILES = {
  "climate.zarr/.zgroup": '{"zarr_format":2}',
  "climate.zarr/t/0.0": patterned(300, 1),
  "climate.zarr/t/0.1": patterned(300, 2),
  "notes/read me.txt": { content: "hello", contentType: "text/plain" },
  "nosize": { content: "abc", listedSize: null, md5: null },
  "survey.tab": { content: "a\tb\n1\t2\n", listedSize: 4, tabular: true },
};

Deno.test("serialize() before the listing: options only", async () => {
  await using emu = await startEmulator({ files: FILES });
  const fs = new RepoFs({
    host: emu.host,
    pid: emu.pid,
    headConcurrency: 5,
    version: ":draft",
  });
  const plain = fs.serialize();
  equal(plain.listing, undefined);
  deepStrictEqual(plain.urls, []);
  equal(plain.options.headConcurrency, 5);
  const copy = RepoFs.fromSerialized(structuredClone(plain));
  equal(copy.headConcurrency, 5);
  equal(copy.version, ":draft");
  deepStrictEqual(await copy.find(""), await fs.find(""));
});

Deno.test("a rebuilt instance needs no listing request and no HEAD for cached URLs", async () => {
  await using emu = await startEmulator({ files: FILES, token: "tok" });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid, token: "tok" });
  await fs.catFile("climate.zarr/t/0.0");
  await fs.catFile("notes/read me.txt");
  const plain = fs.serialize();
  equal(plain.options.token, "tok");
  equal(plain.urls.length, 2);
  for (
    const form of [
      structuredClone(plain),
      JSON.parse(JSON.stringify(plain)) as SerializedRepoFs,
    ]
  ) {
    fs.refresh();
    const before = { ...emu.counters };
    const copy = RepoFs.fromSerialized(form);
    deepStrictEqual(
      await copy.ls("climate.zarr/t"),
      await new RepoFs({ host: emu.host, pid: emu.pid, token: "tok" }).ls(
        "climate.zarr/t",
      ),
    );
    deepStrictEqual(await copy.info("notes/read me.txt"), {
      name: "notes/read me.txt",
      type: "file",
      size: 5,
      id: emu.fileId("notes/read me.txt"),
      contentType: "text/plain",
      md5: "5d41402abc4b2a76b9719d911017c592",
      checksum: { type: "MD5", value: "5d41402abc4b2a76b9719d911017c592" },
    });
    equal((await copy.info("survey.tab")).tabular, true, "tabular survives");
    equal((await copy.info("nosize")).tabular, undefined);
    deepStrictEqual(await copy.info("nosize"), {
      name: "nosize",
      type: "file",
      size: null,
      id: emu.fileId("nosize"),
      contentType: "application/octet-stream",
    });
    deepStrictEqual(
      await copy.catFile("climate.zarr/t/0.0"),
      FILES["climate.zarr/t/0.0"],
    );
    equal(
      new TextDecoder().decode(await copy.catFile("notes/read me.txt")),
      "hello",
    );
    equal(
      emu.counters.listingCalls - before.listingCalls,
      1,
      "only the fresh comparison instance listed",
    );
    equal(emu.counters.heads, before.heads, "cached URLs reused");
    await copy.catFile("climate.zarr/t/0.1");
    equal(
      emu.counters.heads,
      before.heads + 1,
      "an uncached file costs one HEAD",
    );
  }
});

Deno.test("a real Worker reads through a transferred instance", async () => {
  await using emu = await startEmulator({ files: FILES });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  await fs.catFile("climate.zarr/.zgroup");
  const worker = new Worker(
    new URL("./fixtures/serialized_reader.ts", import.meta.url),
    { type: "module" },
  );
  try {
    const answer = new Promise<{ files: Uint8Array[]; listing: string[] }>(
      (resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
      },
    );
    worker.postMessage({
      serialized: fs.serialize(),
      paths: ["climate.zarr/.zgroup", "climate.zarr/t/0.1"],
    });
    const { files, listing } = await answer;
    equal(new TextDecoder().decode(files[0]), FILES["climate.zarr/.zgroup"]);
    deepStrictEqual(files[1], FILES["climate.zarr/t/0.1"]);
    deepStrictEqual(listing, await fs.find(""));
    equal(emu.counters.listingCalls, 1, "the worker did not list");
    equal(emu.counters.heads, 2, "the worker resolved only the uncached file");
  } finally {
    worker.terminate();
  }
});

Deno.test("a malformed serialised form is a TypeError", () => {
  throws(
    () => RepoFs.fromSerialized({} as SerializedRepoFs),
    /Not a serialised RepoFs/,
  );
  throws(
    () => RepoFs.fromSerialized({ format: "repo-fs/1" } as SerializedRepoFs),
    /options and urls/,
  );
  const good = new RepoFs({ host: "http://127.0.0.1:1", pid: "doi:1/2" })
    .serialize();
  const broken = {
    ...good,
    listing: {
      paths: ["a"],
      ids: [],
      sizes: [],
      contentTypes: [],
      contentTypeIndex: [],
      checksumTypes: [],
      checksumTypeIndex: [],
      checksums: [],
      tabular: [],
      originals: [],
      restricted: [],
      embargoes: [],
    },
  };
  throws(() => RepoFs.fromSerialized(broken), /malformed listing/);
  ok(RepoFs.fromSerialized(good));
});

Deno.test("checkSerialized refuses another format", () => {
  throws(
    () => checkSerialized({ format: "other" }),
    /^TypeError: Not a serialised RepoFs \(format "other"\)$/,
  );
  checkSerialized({ format: "repo-fs/1", options: {}, urls: [] });
});

Deno.test("sharingUrls: a worker's RepoFs uses the main thread's URLs", () => {
  const main = new RepoFs({
    host: "repo.example.org",
    pid: "doi:10.5072/FK2/ABC",
  });
  const worker = sharingUrls(main.serialize(), main[INTERNALS].urls);
  equal(worker[INTERNALS].urls, main[INTERNALS].urls);
});

Deno.test("INTERNALS.urls is the cache resolveDownloadUrl answers from", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  const id = emu.fileId("a.txt");
  const { url } = await fs[INTERNALS].urls.resolve({ id });
  equal(url, await fs.resolveDownloadUrl(id));
  equal(emu.counters.heads, 1);
});

// Behaviour of src/content/content.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoApi } from "../../../src/api/repo_api.ts";
import {
  collect,
  concat,
  ContentReader,
} from "../../../src/content/content.ts";
import { DownloadUrls } from "../../../src/urls/download_urls.ts";

Deno.test("ContentReader: Reads bytes of files", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello world" } });
  const api = RepoApi.connect({ host: emu.host, timeoutMs: 60_000 });
  const urls = new DownloadUrls(
    ({ id, format }, _stale, signal) => api.head(id, signal, format),
    3,
  );
  const { transport, retry, base: repository } = api;
  const reader = new ContentReader(urls, {
    transport,
    retry,
    repository,
    getConcurrency: 64,
  });
  const file = { id: emu.fileId("a.txt"), size: 11 };
  strictEqual(new TextDecoder().decode(await reader.read(file, 0, 5)), "hello");
  strictEqual(new TextDecoder().decode(await reader.read(file, -5)), "world");
  strictEqual(
    await new Response(reader.stream(file, { start: 6 })).text(),
    "world",
  );
});

Deno.test("collect: Concatenates a stream's chunks", async () => {
  const bytes = await collect(new Response("abc").body!);
  equal(bytes.byteLength, 3);
});

Deno.test("concat: The chunks one after the other in one array (the chunk itself when there is only one)", () => {
  deepStrictEqual(
    concat([new Uint8Array([1]), new Uint8Array([2, 3])]),
    new Uint8Array([1, 2, 3]),
  );
});

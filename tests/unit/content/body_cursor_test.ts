// Behaviour of src/content/body_cursor.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { startEmulator } from "../../../emulator.ts";
import { RepoApi } from "../../../src/api/repo_api.ts";
import { RetryPolicy } from "../../../src/api/retry.ts";
import {
  BodyCursor,
  type CursorContext,
  PROGRESS_BYTES,
} from "../../../src/content/body_cursor.ts";
import { DownloadUrls } from "../../../src/urls/download_urls.ts";

Deno.test("PROGRESS_BYTES: Bytes an answer must bring before it breaks off for the break to count as progress, which…", () => {
  strictEqual(PROGRESS_BYTES, 64 * 1024);
});

Deno.test("BodyCursor: Bytes `start` up to `end` (exclusive; the end of the file when absent) of one file, chunk by chunk", async () => {
  // The first answer drops its connection half-way.
  await using emu = await startEmulator({
    files: { "a.txt": "hello world" },
    faults: { rules: [{ route: "content", cutAfter: "half" }] },
  });
  const api = RepoApi.connect({
    host: emu.host,
    timeoutMs: 60_000,
    retry: new RetryPolicy({ baseDelayMs: 1 }),
  });
  const context: CursorContext = {
    urls: new DownloadUrls(
      ({ id, format }, _stale, signal) => api.head(id, signal, format),
      3,
    ),
    transport: api.transport,
    retry: api.retry,
    repository: api.base,
    checked: new WeakSet(),
    learnTotal() {},
  };
  const cursor = new BodyCursor(
    context,
    { id: emu.fileId("a.txt"), size: 11 },
    { start: 2 },
  );
  let text = "";
  for (let chunk; (chunk = await cursor.next()) !== null;) {
    text += new TextDecoder().decode(chunk);
  }
  await cursor.close();
  strictEqual(text, "llo world");
  strictEqual(emu.counters.storeGets, 2); // resumed from the next byte
});

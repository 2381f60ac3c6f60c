import { equal, ok, rejects, strictEqual } from "node:assert/strict";
import { startEmulator } from "../emulator.ts";
import {
  bodyText,
  Deadline,
  exchange,
  plainFetch,
  PROGRESS_STEP_BYTES,
} from "../src/api/request.ts";

Deno.test("plainFetch is a plain function", () => {
  const transport = { fetch: plainFetch(), timeoutMs: 1000 };
  equal(typeof transport.fetch, "function");
});

Deno.test("progress is counted in 1 KiB steps", () => {
  strictEqual(PROGRESS_STEP_BYTES, 1024);
});

Deno.test("a deadline fires after timeoutMs without progress", async () => {
  const deadline = new Deadline(50);
  deadline.rearm(); // progress: 50 ms more
  await rejects(deadline.race(new Promise(() => {}))); // then nothing comes
  ok(deadline.signal.aborted);
  const error = deadline.explain(undefined, "https://r.example/api/x") as Error;
  strictEqual(
    error.message,
    "Request to https://r.example/api/x failed: nothing received for 50 ms",
  );
  deadline.dispose();
});

Deno.test("bodyText reads the body as text", async () => {
  const deadline = new Deadline(1000);
  strictEqual(
    await bodyText(new Response('{"status":"OK"}'), deadline),
    '{"status":"OK"}',
  );
  deadline.dispose();
});

Deno.test("exchange does not follow the redirect", async () => {
  await using emu = await startEmulator({ files: { "a.txt": "hello" } });
  const transport = { fetch: plainFetch(), timeoutMs: 10_000 };
  const url = `${emu.host}/api/access/datafile/${emu.fileId("a.txt")}`;
  const status = await exchange(
    transport,
    url,
    {},
    undefined,
    (r) => Promise.resolve(r.status),
  );
  strictEqual(status, 303); // the redirect to the store is not followed
});

// Behaviour of src/emulator/waits.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  goneSignal,
  sleep,
  untilAborted,
} from "../../../src/emulator/waits.ts";

Deno.test("sleep: Resolves after `ms` milliseconds, or at once when `signal` aborts: the library's one `delay`, with…", async () => {
  const stop = new AbortController();
  const waiting = sleep(60_000, stop.signal);
  stop.abort();
  strictEqual(await waiting, undefined); // resolves, not rejects, its timer cleared
});

Deno.test("untilAborted: Resolves when `signal` aborts", async () => {
  const stop = new AbortController();
  const waiting = untilAborted(stop.signal);
  stop.abort();
  strictEqual(await waiting, undefined);
  strictEqual(await untilAborted(AbortSignal.abort()), undefined); // aborted already
});

Deno.test("goneSignal: A signal that aborts when the client of `request` goes away or `closed` aborts", () => {
  const closing = new AbortController();
  const gone = goneSignal(new Request("http://x/"), closing.signal);
  strictEqual(gone.aborted, false);
  closing.abort();
  strictEqual(gone.aborted, true);
});

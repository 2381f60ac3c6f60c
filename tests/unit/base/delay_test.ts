// Behaviour of src/base/delay.ts, moved here from the examples on its internal symbols.
import { rejects } from "node:assert/strict";
import { delay } from "../../../src/base/delay.ts";

Deno.test("delay: Resolves after `ms` milliseconds; rejects with the signal's reason as soon as `signal` aborts (at…", async () => {
  await delay(1);
  await rejects(delay(60_000, AbortSignal.abort(new Error("stop"))), /stop/);
});

// Behaviour of src/base/retry_count.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { countRetry, retriesSoFar } from "../../../src/base/retry_count.ts";

Deno.test("retriesSoFar: Retries this thread has backed off for so far (rate limits, 5xx, dropped or stalled…", () => {
  const before = retriesSoFar();
  countRetry();
  strictEqual(retriesSoFar(), before + 1);
});

// Behaviour of src/base/retry_count.ts.
import { strictEqual } from "node:assert/strict";
import { countRetriesOf, retriesOf } from "../../../src/base/retry_count.ts";

Deno.test("retriesOf: the count a source registered, read anew each time; 0 for a source that registered none", () => {
  const counted = {};
  let retries = 2;
  countRetriesOf(counted, () => retries);
  const count = retriesOf(counted);
  strictEqual(count(), 2);
  retries++;
  strictEqual(count(), 3);
  strictEqual(retriesOf({})(), 0);
});

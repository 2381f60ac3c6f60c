// Behaviour of src/emulator/counters.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import {
  createCounters,
  enterInFlight,
  resetCounters,
} from "../../../src/emulator/counters.ts";

Deno.test("createCounters: All counts at zero", () => {
  strictEqual(createCounters().storeGets, 0);
});

Deno.test("resetCounters: Zeroes the counts in place", () => {
  const counters = createCounters();
  counters.storeGets = 3;
  enterInFlight(counters, "head"); // a HEAD that has not ended
  resetCounters(counters);
  strictEqual(counters.storeGets, 0);
  strictEqual(counters.heads, 0);
  strictEqual(counters.concurrentHeads, 1);
  strictEqual(counters.peakConcurrentHeads, 1);
});

Deno.test("enterInFlight: Counts one more request of a kind in flight and returns the function that ends it", () => {
  const counters = createCounters();
  const leave = enterInFlight(counters, "head");
  strictEqual(counters.concurrentHeads, 1);
  leave();
  strictEqual(counters.concurrentHeads, 0);
  strictEqual(counters.heads, 1);
  strictEqual(counters.peakConcurrentHeads, 1);
});

// Behaviour of src/fleet/coordinator_scripts.ts, moved here from the examples on its internal symbols.
import { ok } from "node:assert/strict";
import {
  FINISH,
  GET_OR_CLAIM,
  RENEW,
  TAKE_PLACE,
} from "../../../src/fleet/coordinator_scripts.ts";

Deno.test("GET_OR_CLAIM: The cached URL, or the claim to resolve it", () => {
  ok(GET_OR_CLAIM.includes("'NX'"));
});

Deno.test("TAKE_PLACE: One free HEAD place taken as a lease", () => {
  ok(TAKE_PLACE.includes("return -1"));
});

Deno.test("RENEW: Extends the leases the caller holds", () => {
  ok(RENEW.includes("PEXPIRE"));
});

Deno.test('FINISH: Ends a resolution: stores the URL (unless `""`) with its time to live, and gives back the leases…', () => {
  ok(FINISH.includes("'PX'"));
});

/** The damaged-header sweep of tests/netcdf_damage.ts less netcdf_test.ts's sample: in `task test`, not test:fast. */
import { ok } from "node:assert/strict";
import { damagedHeaders } from "./netcdf_damage.ts";

Deno.test("damaged headers: every truncation and byte flip gives the values or a NetcdfFormatError", async () => {
  const outcomes = await damagedHeaders((index) => index % 8 !== 0);
  ok(outcomes.refused > 50 && outcomes.read > 10, JSON.stringify(outcomes));
});

/** The HDF5 damage sweep of tests/hdf5_damage.ts less hdf5_damage_test.ts's sample: in `task test`, not test:fast. */
import { ok } from "node:assert/strict";
import { damagedFiles } from "./hdf5_damage.ts";

Deno.test("truncated and byte-flipped HDF5 files give their values or a FormatError, never another failure", async () => {
  const outcomes = await damagedFiles((trial) => trial % 5 !== 0);
  ok(outcomes.refused > 0 && outcomes.read > 0, JSON.stringify(outcomes));
});

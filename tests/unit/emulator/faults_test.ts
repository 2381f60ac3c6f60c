// Behaviour of src/emulator/faults.ts, moved here from the examples on its internal symbols.
import { notStrictEqual, strictEqual } from "node:assert/strict";
import {
  createFaults,
  takeCountdown,
  takeFailure,
} from "../../../src/emulator/faults.ts";

Deno.test("createFaults: The knobs with their defaults, overridden by `initial`", () => {
  const rules = [{ target: "head" as const, status: 429, count: 1 }];
  const faults = createFaults({ latencyMs: 5, failures: rules });
  strictEqual(faults.latencyMs, 5);
  strictEqual(faults.redirect, true); // a default
  notStrictEqual(faults.failures[0], rules[0]); // a copy
});

Deno.test("takeFailure: Spends one use of the first rule that matches a request and returns it; `undefined` when none…", () => {
  const faults = createFaults({
    failures: [{ target: "head", status: 429, count: 1 }],
  });
  strictEqual(
    takeFailure(faults, ["repo", "head"], "/api/access/datafile/7")?.status,
    429,
  );
  strictEqual(
    takeFailure(faults, ["repo", "head"], "/api/access/datafile/7"),
    undefined,
  );
});

Deno.test("takeCountdown: Spends one use of a countdown knob; true when it had one left", () => {
  const faults = createFaults({ drop: 1 });
  strictEqual(takeCountdown(faults, "drop"), true);
  strictEqual(takeCountdown(faults, "drop"), false);
});

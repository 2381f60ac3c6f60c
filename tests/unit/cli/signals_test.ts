// Behaviour of src/cli/signals.ts, moved here from the examples on its internal symbols.
import { strictEqual } from "node:assert/strict";
import { INTERRUPTED, stopSignal } from "../../../src/cli/signals.ts";

Deno.test("INTERRUPTED: Exit status of a run stopped by a stop signal, as shells report Ctrl-C", () => {
  strictEqual(INTERRUPTED, 130);
});

Deno.test("stopSignal: An `AbortSignal` that SIGINT or SIGTERM aborts, until disposed", () => {
  using stop = stopSignal();
  strictEqual(stop.signal.aborted, false); // until Ctrl-C or SIGTERM
});

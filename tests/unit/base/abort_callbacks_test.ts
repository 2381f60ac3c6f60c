// Behaviour of src/base/abort_callbacks.ts, moved here from the examples on its internal symbols.
import { deepEqual, rejects, strictEqual } from "node:assert/strict";
import { abortable, whenAborted } from "../../../src/base/abort_callbacks.ts";

Deno.test("whenAborted: Calls `callback` once when `signal` aborts, unless the returned function was called first;…", () => {
  const controller = new AbortController();
  const heard: string[] = [];
  whenAborted(controller.signal, () => heard.push("first"));
  const forget = whenAborted(controller.signal, () => heard.push("forgotten"));
  forget();
  controller.abort();
  deepEqual(heard, ["first"]);
});

Deno.test("abortable: `promise`, or the abort reason of the first of `signals` to abort while it is pending: a wait…", async () => {
  const stop = new AbortController();
  const never = new Promise<number>(() => {});
  const waiting = abortable(never, undefined, stop.signal);
  stop.abort(new Error("no longer wanted"));
  await rejects(waiting, /no longer wanted/);
  strictEqual(
    await abortable(Promise.resolve(7), new AbortController().signal),
    7,
  );
});

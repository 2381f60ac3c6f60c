// src/pool/pool_protocol.ts: the messages between a pool and its workers.
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { NotFoundError, RepoHttpError } from "../src/base/errors.ts";
import {
  Batch,
  flattenError,
  type FromWorker,
  type PlainError,
  reviveError,
  type ToWorker,
  transferables,
} from "../src/pool/pool_protocol.ts";

Deno.test("ToWorker messages", () => {
  const ask: ToWorker = {
    type: "cat",
    job: 1,
    path: "climate.zarr/.zgroup",
    start: 0,
    end: 24,
  };
  deepStrictEqual(structuredClone(ask), ask); // plain data: it crosses postMessage whole
});

Deno.test("FromWorker messages", () => {
  const asks: FromWorker = {
    type: "resolve",
    asks: [{ ask: 1, file: { id: 42, format: "original" } }],
  };
  deepStrictEqual(structuredClone(asks), asks); // plain data: it crosses postMessage whole
});

Deno.test("Batch sends a microtask run's items together", async () => {
  const sent: string[][] = [];
  const batch = new Batch<number, string>((items) => sent.push(items));
  batch.add(1, "a");
  batch.add(2, "b");
  batch.add(3, "c");
  strictEqual(batch.take(2), true); // not sent yet: taken back
  await Promise.resolve();
  deepStrictEqual(sent, [["a", "c"]]);
  strictEqual(batch.take(1), false); // already sent

  let holding = true;
  const held = new Batch<number, string>(
    (items) => sent.push(items),
    () => holding,
  );
  held.add(4, "d");
  await Promise.resolve();
  strictEqual(sent.length, 1); // held
  holding = false;
  held.flush();
  deepStrictEqual(sent[1], ["d"]);
});

Deno.test("PlainError is plain data", () => {
  const plain: PlainError = flattenError(
    new Error("no listing", { cause: new TypeError("bad JSON") }),
  );
  deepStrictEqual(plain, {
    name: "Error",
    message: "no listing",
    fields: {},
    cause: { name: "TypeError", message: "bad JSON", fields: {} },
  });
});

Deno.test("flattenError keeps the first eight causes", () => {
  strictEqual(flattenError(new RangeError("too far")).name, "RangeError");
  const http = flattenError(
    new RepoHttpError(503, "https://repo.example.org/api/x", "busy"),
  );
  strictEqual(http.name, "RepoHttpError");
  strictEqual(http.fields.status, 503);
  deepStrictEqual(flattenError("not an Error"), {
    name: "Error",
    message: "not an Error",
    fields: {},
  });
});

Deno.test("reviveError restores class, fields and causes", () => {
  const e = reviveError(flattenError(new NotFoundError("a/b")));
  ok(e instanceof NotFoundError);
  strictEqual(e.path, "a/b");
  strictEqual(e.code, "ENOENT");
});

Deno.test("transferables lists the buffers to move", () => {
  const bytes = new Uint8Array(8);
  deepStrictEqual(transferables(bytes), [bytes.buffer]);
  deepStrictEqual(transferables(new Uint8Array(new SharedArrayBuffer(8))), []); // shared, not moved
  deepStrictEqual(transferables("text"), []);
});

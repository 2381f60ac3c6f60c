// Behaviour of src/content/content_answer.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, strictEqual, throws } from "node:assert/strict";
import {
  classifyAnswer,
  expectTotal,
  rangeFor,
  StaleUrlError,
  UNENCODED,
} from "../../../src/content/content_answer.ts";

Deno.test("StaleUrlError: The store refused the URL (an expired or bad signature), or the repository, which used to…", () => {
  const refused = new Error("HTTP 403");
  const e = new StaleUrlError(refused, "https://s3.example/b/k");
  strictEqual(e.final, refused);
  strictEqual(e.message, "HTTP 403");
});

Deno.test("rangeFor: The `Range` header for `asked` of `file`; `undefined` when it is the whole file", () => {
  const file = { id: 1, size: 100 };
  strictEqual(rangeFor({ start: 0, end: 10 }, file), "bytes=0-9");
  strictEqual(rangeFor({ start: 5 }, file), "bytes=5-");
  strictEqual(rangeFor({ start: 0, end: 100 }, file), undefined);
});

Deno.test("expectTotal: Checks that a file size an answer implies can be the file read: the size an earlier answer of…", () => {
  expectTotal(100, { id: 1, size: 100 }, "https://s3.example/k");
  throws(
    () => expectTotal(18, { id: 1, size: 100 }, "https://s3.example/k"),
    /listing says 100/,
  );
  const tabular = { id: 1, size: 100, tabular: true, answeredSize: 150 };
  throws(
    () => expectTotal(120, tabular, "https://s3.example/k"),
    /changed during the read \(150 bytes, then 120\)/,
  );
});

Deno.test("UNENCODED: The headers every content request carries: the file's own bytes, not an encoding of them", () => {
  strictEqual(UNENCODED["Accept-Encoding"], "identity");
});

Deno.test("classifyAnswer: Classifies the answer to a request for `asked` of `file` from `target`", async () => {
  const response = new Response("abc", {
    status: 206,
    headers: { "content-range": "bytes 10-12/100" },
  });
  const target = {
    url: "https://s3.example/k",
    direct: false,
    resolvedAt: 0,
    expiresAt: Infinity,
  };
  const answer = await classifyAnswer(response, { start: 10, end: 13 }, {
    id: 1,
    size: 100,
  }, target);
  deepStrictEqual(answer, {
    kind: "body",
    from: 10,
    skip: 0,
    end: 13,
    whole: false,
    total: 100,
  });
  await response.body?.cancel();
});

// Behaviour of src/base/secrets.ts, moved here from the examples on its internal symbols.
import { deepStrictEqual, equal, strictEqual } from "node:assert/strict";
import {
  hideSecret,
  holdsSecret,
  httpTrimmed,
  redact,
  redactingLogger,
} from "../../../src/base/secrets.ts";

Deno.test("hideSecret: Adds `secret` to the values redact blanks out, for the rest of this thread's life: as given,…", () => {
  hideSecret("s3cret-for-the-example");
  strictEqual(redact("Bad API key s3cret-for-the-example"), "Bad API key ***");
});

Deno.test("httpTrimmed: `value` without the whitespace HTTP strips from a header value's ends (spaces, tabs, CR, LF):…", () => {
  strictEqual(httpTrimmed(" tok-1\r\n"), "tok-1");
  strictEqual(httpTrimmed("tok\u00a0"), "tok\u00a0"); // not HTTP whitespace
});

Deno.test("redact: `text` with every hidden secret replaced by `***`", () => {
  equal(redact("nothing secret here"), "nothing secret here");
});

Deno.test("redactingLogger: `logger` with every line passed through redact first: lines quote listing entries and…", () => {
  hideSecret("tok-for-the-logger-example");
  const lines: string[] = [];
  const logger = redactingLogger({
    debug: (m) => lines.push(m),
    info: (m) => lines.push(m),
    warn: (m) => lines.push(m),
  });
  logger.warn('Listing entry "../tok-for-the-logger-example" left out');
  deepStrictEqual(lines, ['Listing entry "../***" left out']);
});

Deno.test("holdsSecret: Whether `text` holds a hidden secret of 8 characters or more, as given or percent-encoded: a…", () => {
  hideSecret("tok/en-for-the-example");
  strictEqual(
    holdsSecret("https://s3.example/b/k?key=tok%2fen-for-the-example"),
    true,
  );
  strictEqual(holdsSecret("https://s3.example/b/k"), false);
});

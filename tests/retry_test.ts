import { equal, ok, rejects, strictEqual } from "node:assert/strict";
import { isRetriable, retrying, RetryPolicy } from "../src/api/retry.ts";
import { RepoHttpError } from "../src/base/errors.ts";
import { delay } from "../src/base/delay.ts";

Deno.test("429 is retried, 404 is not", () => {
  strictEqual(
    isRetriable(new RepoHttpError(429, "https://r.example/api")),
    true,
  );
  strictEqual(
    isRetriable(new RepoHttpError(404, "https://r.example/api")),
    false,
  );
});

Deno.test("backoff honours Retry-After and its bound", () => {
  const policy = new RetryPolicy({ retries: 3, baseDelayMs: 100 });
  equal(policy.delayMs(0, "2"), 2000); // the server's wish wins
  ok(policy.delayMs(2, undefined) <= 400);
});

Deno.test("retrying stops at success or after its retries", async () => {
  equal(
    await retrying(new RetryPolicy(), undefined, () => Promise.resolve(1)),
    1,
  );
  await rejects(
    retrying(
      new RetryPolicy({ retries: 2, baseDelayMs: 1 }),
      undefined,
      () => Promise.reject(new RepoHttpError(503, "https://r.example/api")),
      (_error, cost) => new Error(`${cost.attempts} attempts`),
    ),
    /^Error: 3 attempts$/,
  );
});

Deno.test("delay rejects on abort", async () => {
  await delay(1);
  await rejects(delay(60_000, AbortSignal.abort(new Error("stop"))), /stop/);
});

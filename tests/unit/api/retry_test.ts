// Behaviour of src/api/retry.ts, moved here from the examples on its internal symbols.
import { equal, ok, rejects, strictEqual } from "node:assert/strict";
import { isRetriable, retrying, RetryPolicy } from "../../../src/api/retry.ts";
import { RepoHttpError } from "../../../src/base/errors.ts";

Deno.test("isRetriable: The one retry decision: a connection that failed, dropped or went quiet, or an answer with a…", () => {
  strictEqual(
    isRetriable(new RepoHttpError(429, "https://r.example/api")),
    true,
  );
  strictEqual(
    isRetriable(new RepoHttpError(404, "https://r.example/api")),
    false,
  );
});

Deno.test("RetryPolicy: Exponential backoff with full jitter, bounded, honouring `Retry-After`", () => {
  const policy = new RetryPolicy({ retries: 3, baseDelayMs: 100 });
  equal(policy.delayMs(0, "2"), 2000); // the server's wish wins
  ok(policy.delayMs(2, undefined) <= 400);
});

Deno.test("retrying: Runs `attempt` until it succeeds, fails in a way isRetriable refuses, or the policy's retries…", async () => {
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

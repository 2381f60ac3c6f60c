// Waiting on one signal: a read of 20,000 chunks hands one signal to every
// semaphore wait, HEAD and URL ask it starts. Each group compares 20,000
// queued `Semaphore` waits without a signal (the baseline) and with one
// shared signal, as `Semaphore` waits now (`whenAborted`) and as it waited
// before (one `addEventListener` per waiter).
//
// Command (from the repository root; about 30 s):
//   deno bench bench/abort_callbacks_bench.ts

import { Semaphore } from "../src/base/semaphore.ts";

const WAITERS = 20_000;

/** `Semaphore.acquire` as it was: one abort listener per waiter. */
function acquireWithListener(
  places: { free: number; waiting: Set<() => void> },
  signal: AbortSignal,
): Promise<void> {
  if (places.free > 0) {
    places.free--;
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      places.waiting.delete(grant);
      reject(signal.reason);
    };
    const grant = () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    };
    places.waiting.add(grant);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function releaseTo(places: { free: number; waiting: Set<() => void> }) {
  const [next] = places.waiting;
  if (next === undefined) return void places.free++;
  places.waiting.delete(next);
  next();
}

Deno.bench({
  name: "20,000 queued waits, no signal",
  group: "semaphore",
  baseline: true,
  n: 10,
  async fn() {
    const semaphore = new Semaphore(4);
    await Promise.all(
      Array.from(
        { length: WAITERS },
        () => semaphore.run(() => Promise.resolve()),
      ),
    );
  },
});

Deno.bench({
  name: "20,000 queued waits on one signal (whenAborted)",
  group: "semaphore",
  n: 10,
  async fn() {
    const semaphore = new Semaphore(4);
    const { signal } = new AbortController();
    await Promise.all(
      Array.from(
        { length: WAITERS },
        () => semaphore.run(() => Promise.resolve(), signal),
      ),
    );
  },
});

Deno.bench({
  name: "20,000 queued waits on one signal (a listener each)",
  group: "semaphore",
  n: 10,
  async fn() {
    const places = { free: 4, waiting: new Set<() => void>() };
    const { signal } = new AbortController();
    await Promise.all(
      Array.from({ length: WAITERS }, async () => {
        await acquireWithListener(places, signal);
        try {
          await Promise.resolve();
        } finally {
          releaseTo(places);
        }
      }),
    );
  },
});

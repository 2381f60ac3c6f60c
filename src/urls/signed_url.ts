/**
 * Lifetimes of pre-signed object-store URLs, read from the URL itself.
 *
 * @module
 */

/**
 * When a pre-signed URL stops working, in epoch milliseconds: `X-Amz-Date`
 * plus `X-Amz-Expires`. `Infinity` when the URL does not say.
 *
 * @example
 * ```ts
 * import { urlExpiry } from "./signed_url.ts";
 * import { strictEqual } from "node:assert/strict";
 * const url = "https://s3.example/b/k?X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600";
 * strictEqual(new Date(urlExpiry(url)).toISOString(), "2026-01-01T01:00:00.000Z");
 * strictEqual(urlExpiry("https://example.org/plain"), Infinity);
 * ```
 */
export function urlExpiry(url: string): number {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return Infinity;
  }
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(
    params.get("X-Amz-Date") ?? "",
  );
  const seconds = Number(params.get("X-Amz-Expires") ?? NaN);
  if (!date || !Number.isFinite(seconds)) return Infinity;
  const [, y, mo, d, h, mi, s] = date.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s) + seconds * 1000;
}

/**
 * When a URL with this expiry stops being handed out: the last tenth of its
 * lifetime (at most 30 s) before it runs out is kept as a margin.
 *
 * @example
 * ```ts
 * import { usableUntil } from "./signed_url.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(usableUntil(3_600_000, 3_600_000), 3_570_000);
 * strictEqual(usableUntil(60_000, 60_000), 54_000);
 * ```
 */
export function usableUntil(expiresAt: number, lifetimeMs: number): number {
  return expiresAt - Math.min(30_000, lifetimeMs / 10);
}

/**
 * Whether a URL with this expiry should be re-resolved now: past
 * {@linkcode usableUntil}.
 *
 * @example
 * ```ts
 * import { isNearExpiry } from "./signed_url.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(isNearExpiry(Date.now() + 3_600_000, 3_600_000), false);
 * strictEqual(isNearExpiry(Date.now() + 1_000, 3_600_000), true);
 * ```
 */
export function isNearExpiry(expiresAt: number, lifetimeMs: number): boolean {
  return Date.now() >= usableUntil(expiresAt, lifetimeMs);
}

/**
 * Lifetimes of pre-signed object-store URLs, read from the URL itself.
 *
 * @module
 */

/**
 * When a pre-signed URL stops working, in epoch milliseconds: `X-Amz-Date`
 * plus `X-Amz-Expires`. `Infinity` when the URL does not say.
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
 */
export function usableUntil(expiresAt: number, lifetimeMs: number): number {
  return expiresAt - Math.min(30_000, lifetimeMs / 10);
}

/**
 * Whether a URL with this expiry should be re-resolved now: past
 * {@linkcode usableUntil}.
 */
export function isNearExpiry(expiresAt: number, lifetimeMs: number): boolean {
  return Date.now() >= usableUntil(expiresAt, lifetimeMs);
}

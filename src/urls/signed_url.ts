/**
 * Lifetimes of pre-signed object-store URLs, read from the URL itself.
 *
 * @module
 */

/** `20260101T000000Z`, as S3 and GCS V4 sign dates. */
const COMPACT_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/**
 * When a pre-signed URL stops working, in epoch milliseconds by the clock
 * of whoever signed it: S3 V4 (`X-Amz-Date` + `X-Amz-Expires`), GCS V4
 * (`X-Goog-Date` + `X-Goog-Expires`), Swift temp URLs
 * (`temp_url_expires`), Azure SAS (`se`), and S3 V2, GCS V2 and CloudFront
 * (`Expires`, unix seconds). `Infinity` when the URL says none of these.
 */
export function urlExpiry(url: string): number {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return Infinity;
  }
  const dated = (date: string, expires: string) => {
    const signed = compactDate(params.get(date));
    return signed + wholeSeconds(params.get(expires)) * 1000;
  };
  const candidates = [
    dated("X-Amz-Date", "X-Amz-Expires"),
    dated("X-Goog-Date", "X-Goog-Expires"),
    instant(params.get("temp_url_expires")),
    isoTime(params.get("se")),
    wholeSeconds(params.get("Expires")) * 1000,
  ];
  return candidates.find(Number.isFinite) ?? Infinity;
}

/** A compact `20260101T000000Z` date in epoch ms; `NaN` for anything else. */
function compactDate(value: string | null): number {
  const parts = COMPACT_DATE.exec(value ?? "");
  if (!parts) return NaN;
  const [, y, mo, d, h, mi, s] = parts.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/** A whole number of seconds; `NaN` for anything else. */
function wholeSeconds(value: string | null): number {
  return value !== null && /^\d{1,12}$/.test(value) ? Number(value) : NaN;
}

/** Unix seconds or an ISO 8601 UTC time (Swift takes both), in epoch ms. */
function instant(value: string | null): number {
  const seconds = wholeSeconds(value);
  return Number.isFinite(seconds) ? seconds * 1000 : isoTime(value);
}

/** `2026-01-01`, `2026-01-01T00:00Z` or `2026-01-01T00:00:00Z` in epoch ms; `NaN` for anything else. */
function isoTime(value: string | null): number {
  const iso = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z)?$/;
  return value !== null && iso.test(value) ? Date.parse(value) : NaN;
}

/**
 * When a URL runs out by this machine's clock, in epoch ms: the lifetime it
 * had by the clock of the answer that carried it (its `Date` header,
 * `answerDate`; this machine's clock when there was none) added to when it
 * arrived here, so that clocks set apart do not matter. A `Date` names its
 * second, not the instant: it is taken as that second's end. `Infinity`
 * when the URL shows no expiry, or looks expired on arrival (it is then
 * used until the store refuses it).
 */
export function localExpiry(
  url: string,
  arrivedAt: number,
  answerDate?: number,
): number {
  const sent = answerDate === undefined ? arrivedAt : answerDate + 999;
  const lifetime = urlExpiry(url) - sent;
  return lifetime > 0 && lifetime < Infinity ? arrivedAt + lifetime : Infinity;
}

/**
 * When a URL with this expiry stops being handed out: the last tenth of its
 * lifetime (at most 30 s) before it runs out is kept as a margin.
 */
export function usableUntil(expiresAt: number, lifetimeMs: number): number {
  return expiresAt - Math.min(30_000, lifetimeMs / 10);
}

/**
 * The expiry that leaves a URL resolved at `now` usable for `usableMs`
 * more: the inverse of {@linkcode usableUntil}.
 */
export function expiryLeaving(usableMs: number, now: number): number {
  return now + Math.min(usableMs + 30_000, usableMs / 0.9);
}

/**
 * Whether a URL with this expiry should be re-resolved now: past
 * {@linkcode usableUntil}.
 */
export function isNearExpiry(expiresAt: number, lifetimeMs: number): boolean {
  return Date.now() >= usableUntil(expiresAt, lifetimeMs);
}

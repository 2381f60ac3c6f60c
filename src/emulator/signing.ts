/**
 * Pre-signed object-store URLs in the shape of S3 query-string
 * authentication, signed with a random per-emulator secret.
 *
 * @module
 */

import { createHmac, timingSafeEqual } from "node:crypto";

const ALGORITHM = "AWS4-HMAC-SHA256";
const KEY_PREFIX = "REPOEMULATOR";
const encoder = new TextEncoder();
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

/** What the store makes of a URL's credentials. */
export type UrlVerdict = "valid" | "invalid" | "expired";

/**
 * Signs store paths for GET and checks signed URLs. A URL expires when the
 * clock passes `X-Amz-Date` + `X-Amz-Expires` (to the second, as S3 does) or
 * when {@linkcode UrlSigner.expireAll} is called after it was signed: each
 * call starts a new access key, and URLs of older keys are expired.
 */
export class UrlSigner {
  readonly #secret = crypto.getRandomValues(new Uint8Array(32));
  readonly #lifetimeSeconds: number;
  #keyGeneration = 0;

  /** @param lifetimeSeconds `X-Amz-Expires` of the URLs it signs */
  constructor(lifetimeSeconds: number) {
    this.#lifetimeSeconds = lifetimeSeconds;
  }

  /** The query string (with its `?`) that makes `path` fetchable by GET. */
  sign(path: string): string {
    const iso = new Date().toISOString();
    const date = `${iso.slice(0, 19).replace(/[-:]/g, "")}Z`;
    const credential = `${KEY_PREFIX}${this.#keyGeneration}/${
      date.slice(0, 8)
    }/us-east-1/s3/aws4_request`;
    const expires = String(this.#lifetimeSeconds);
    const query = new URLSearchParams({
      "X-Amz-Algorithm": ALGORITHM,
      "X-Amz-Credential": credential,
      "X-Amz-Date": date,
      "X-Amz-Expires": expires,
      "X-Amz-SignedHeaders": "host",
      "X-Amz-Signature": this.#signature(path, credential, date, expires),
    });
    return `?${query}`;
  }

  /** Checks a URL's signature, then its expiry. */
  verify(url: URL): UrlVerdict {
    const q = url.searchParams;
    const credential = q.get("X-Amz-Credential") ?? "";
    const date = q.get("X-Amz-Date") ?? "";
    const expires = q.get("X-Amz-Expires") ?? "";
    const given = q.get("X-Amz-Signature") ?? "";
    const expected = this.#signature(url.pathname, credential, date, expires);
    const signed = q.get("X-Amz-Algorithm") === ALGORITHM &&
      q.get("X-Amz-SignedHeaders") === "host" &&
      given.length === expected.length &&
      timingSafeEqual(encoder.encode(given), encoder.encode(expected));
    const parts = AMZ_DATE.exec(date);
    if (!signed || !parts || !/^\d+$/.test(expires)) return "invalid";
    const [, y, mo, d, h, mi, s] = parts.map(Number);
    const signedAt = Date.UTC(y, mo - 1, d, h, mi, s) / 1000;
    const now = Math.floor(Date.now() / 1000);
    const generation = credential.slice(KEY_PREFIX.length).split("/")[0];
    return now > signedAt + Number(expires) ||
        generation !== String(this.#keyGeneration)
      ? "expired"
      : "valid";
  }

  /** Expires every URL signed so far. */
  expireAll(): void {
    this.#keyGeneration++;
  }

  #signature(
    path: string,
    credential: string,
    date: string,
    expires: string,
  ): string {
    return createHmac("sha256", this.#secret)
      .update(`GET\n${path}\n${credential}\n${date}\n${expires}`)
      .digest("hex");
  }
}

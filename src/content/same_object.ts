/**
 * Which object a read is of: the validators (`ETag`, `Last-Modified`) of the
 * first answer of one read or one `open()` handle, which every later answer,
 * resumes included, is held to, so that bytes of two versions of a file are
 * never spliced together.
 *
 * @module
 */

import { RepoChangedError } from "../base/errors.ts";
import { SENDS_ACCEPT_ENCODING } from "./content_answer.ts";

/** The validators of one answer; `null` where it had none. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

const NAMES = { etag: "ETag", lastModified: "Last-Modified" } as const;

/**
 * The object the answers of one read or one handle must come from: the
 * first answer with a body pins it.
 */
export class SameObject {
  #first?: Validators;
  readonly #ifRange: boolean;

  /**
   * @param first the validators pinned elsewhere (a pool's handle, a resumed download's record), if any
   * @param options `ifRange`: ask with `If-Range` rather than `If-Match`, so that a changed object is answered whole (200), not refused
   */
  constructor(first?: Validators, options: { ifRange?: boolean } = {}) {
    this.#first = first;
    this.#ifRange = options.ifRange === true;
  }

  /** The validators of the first answer, once one pinned them. */
  get pinned(): Validators | undefined {
    return this.#first;
  }

  /**
   * Headers that make the server refuse (412) to answer from another object
   * than the first answer's: `If-Match` with a strong `ETag`, else
   * `If-Unmodified-Since` (with `ifRange`, `If-Range` with either: another
   * object comes whole, and {@linkcode SameObject.check} refuses it). None
   * in browsers, where they would need a CORS preflight the store may not
   * allow; the answers are still compared.
   */
  conditions(): Record<string, string> {
    const first = this.#first;
    if (first === undefined || !SENDS_ACCEPT_ENCODING) return {};
    if (this.#ifRange) {
      const strong = first.etag?.startsWith("W/") ? null : first.etag;
      const validator = strong ?? first.lastModified;
      return validator === null ? {} : { "If-Range": validator };
    }
    if (first.etag !== null) {
      return first.etag.startsWith("W/") ? {} : { "If-Match": first.etag };
    }
    return first.lastModified === null
      ? {}
      : { "If-Unmodified-Since": first.lastModified };
  }

  /**
   * Throws a {@linkcode RepoChangedError} when `response` cannot be of the
   * pinned object: a 412 to the conditions, or a 200 or 206 with another
   * validator, or with one the first answer lacked (nothing then vouches
   * that the two are of one object). A validator the first answer had and a
   * later one lacks proves nothing: the conditions were sent.
   */
  check(response: Response, url: string): void {
    const first = this.#first;
    if (first === undefined) return;
    const { status } = response;
    if (status === 412) {
      throw new RepoChangedError(
        `412 Precondition Failed to ${
          Object.entries(this.conditions()).map(([k, v]) => `${k}: ${v}`)
            .join(", ") || "a condition"
        }`,
        url,
      );
    }
    if (status !== 200 && status !== 206) return;
    this.#compare(validatorsOf(response), url);
  }

  /** Pins the object of the first 200 or 206; later answers are checked. */
  pin(response: Response): void {
    if (response.status !== 200 && response.status !== 206) return;
    this.#first ??= validatorsOf(response);
  }

  /**
   * Pins `validators` of an answer read elsewhere (in a pool's worker),
   * or holds them to the pinned ones as {@linkcode SameObject.check} does.
   */
  adopt(validators: Validators, url: string): void {
    if (this.#first === undefined) this.#first = validators;
    else this.#compare(validators, url);
  }

  #compare(now: Validators, url: string): void {
    const first = this.#first!;
    for (const key of ["etag", "lastModified"] as const) {
      const [was, is] = [first[key], now[key]];
      if (is === null || is === was) continue;
      throw new RepoChangedError(
        was === null
          ? `the first answer had no ${NAMES[key]}, a later one ${is}`
          : `${NAMES[key]} ${was}, then ${is}`,
        url,
      );
    }
  }
}

function validatorsOf(response: Response): Validators {
  return {
    etag: response.headers.get("etag")?.trim() || null,
    lastModified: response.headers.get("last-modified")?.trim() || null,
  };
}

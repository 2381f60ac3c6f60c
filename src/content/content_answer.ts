/**
 * The one response classifier of content reads: what an answer to a content
 * request covers, checked against what was asked and against what the
 * listing says of the file. An answer that cannot be the file (a short
 * proxy page, a length the listing contradicts, a range other than the one
 * asked) is a {@linkcode RepoProtocolError}, never data.
 *
 * @module
 */

import { parseContentRange, rangeHeader } from "./byte_range.ts";
import type { ResolvedUrl } from "../base/types.ts";
import type { ContentFile } from "./content_file.ts";
import { RepoChangedError, RepoProtocolError } from "../base/errors.ts";
import { failureFor } from "../api/repo_api.ts";
import { storeRefusal } from "./refusal.ts";

/**
 * Bytes asked of a file: `start` up to `end` (exclusive), or to the end of
 * the file when `end` is absent.
 */
export interface Asked {
  /** First byte. */
  start: number;
  /** Byte after the last; absent for "to the end". */
  end?: number;
}

/**
 * What an answer holds.
 *
 * - `body`: its body starts at file offset `from`; the first `skip` bytes
 *   come before `asked.start`. It ends at `end` (exclusive) when the answer
 *   said where; `whole` when the body is the whole file (a 200). `total` is
 *   the file's size when the answer told it.
 * - `none`: the file ends at or before `asked.start` (a 416).
 */
export type Answer =
  | {
    kind: "body";
    from: number;
    skip: number;
    end: number | undefined;
    whole: boolean;
    total: number | undefined;
  }
  | { kind: "none"; total: number | undefined };

/**
 * The store refused the URL (an expired or bad signature), or the
 * repository, which used to serve the bytes itself, now redirects: the URL
 * should be resolved afresh. `final` is the error to raise if that does not
 * help.
 */
export class StaleUrlError extends Error {
  /**
   * @param final the error to raise when a fresh URL does not help
   * @param url the refused URL
   */
  constructor(readonly final: Error, readonly url: string) {
    super(final.message, { cause: final });
    this.name = "StaleUrlError";
  }
}

/**
 * The `Range` header for `asked` of `file`; `undefined` when it is the
 * whole file.
 */
export function rangeFor(asked: Asked, file: ContentFile): string | undefined {
  const whole = asked.end === undefined ||
    (asked.end === file.size && !file.tabular);
  return rangeHeader(
    whole
      ? { kind: "from", start: asked.start }
      : { kind: "bounded", start: asked.start, end: asked.end! },
  );
}

/**
 * Checks that a file size an answer implies can be the file read: the size
 * an earlier answer of the read gave, if one did (else a
 * {@linkcode RepoChangedError}); then equal to the listed size, or at least
 * it for an ingested tabular file: a shorter answer is never the file.
 * Anything goes when no size is listed.
 */
export function expectTotal(
  total: number,
  file: ContentFile,
  url: string,
): void {
  const said = file.answeredSize;
  if (said !== undefined && total !== said) {
    throw new RepoChangedError(`${said} bytes, then ${total}`, url);
  }
  const listed = file.size;
  if (listed === null || total === listed) return;
  if (file.tabular && total > listed) return;
  throw new RepoProtocolError(
    `the answer is for a file of ${total} bytes, but the listing says ${listed}${
      file.tabular ? " or more" : ""
    }: it is not this file`,
    url,
  );
}

/**
 * The headers every content request carries: the file's own bytes, not an
 * encoding of them. A runtime that decodes an answer decodes only some
 * encodings (Deno: `gzip` and `br`, and none once `identity` was asked), so
 * an encoded answer is refused, not guessed at.
 */
export const UNENCODED: Readonly<Record<string, string>> = {
  "Accept-Encoding": "identity",
};

/**
 * False in browsers: `Accept-Encoding` is theirs to send (a forbidden header
 * name), and they decode every encoding they ask for.
 */
export const SENDS_ACCEPT_ENCODING = new Request("http://localhost/", {
  headers: UNENCODED,
}).headers.has("accept-encoding");

/**
 * Classifies the answer to a request for `asked` of `file` from `target`.
 * Error statuses become the error to raise ({@linkcode StaleUrlError} for a
 * store URL refused with 400, 401 or 403: never the repository's own, whose
 * refusals are of the API token); their bodies are read, other bodies are
 * left to the caller.
 */
export async function classifyAnswer(
  response: Response,
  asked: Asked,
  file: ContentFile,
  target: ResolvedUrl,
): Promise<Answer> {
  const { url } = target;
  const { status } = response;
  if (status === 200 || status === 206) {
    const range = rangeFor(asked, file);
    const encoding = response.headers.get("content-encoding")?.trim();
    if (
      encoding && encoding.toLowerCase() !== "identity" &&
      (range !== undefined || SENDS_ACCEPT_ENCODING)
    ) {
      throw new RepoProtocolError(
        `asked ${
          range ?? "the whole file"
        } unencoded but the answer is encoded (Content-Encoding: ${encoding}): its bytes are not the file's`,
        url,
      );
    }
    refuseStrayPage(response, file, url);
    return status === 206
      ? partial(response, asked, file, url)
      : whole(response, asked, file, url);
  }
  if (status === 416) return unsatisfiable(response, asked, file, url);
  if (status >= 300 && status < 400) {
    const error = new RepoProtocolError(
      `the content URL answered ${status} (a redirect, which is not followed)`,
      url,
    );
    throw target.direct ? new StaleUrlError(error, url) : error;
  }
  if (status >= 200 && status < 300) {
    throw new RepoProtocolError(
      `the content URL answered ${status}, neither 200 nor 206`,
      url,
    );
  }
  const error = await failureFor(response, url);
  throw REFUSED_URL.has(status) && !target.direct
    ? new StaleUrlError(storeRefusal(error), url)
    : error;
}

/**
 * How object stores refuse an expired or bad pre-signed URL: S3 with
 * temporary credentials 400 (`ExpiredToken`), GCS 400, Swift 401, S3 403.
 */
const REFUSED_URL = new Set([400, 401, 403]);

/** Media types of web pages, which a proxy's login or error page is. */
const PAGE_TYPES = new Set(["text/html", "application/xhtml+xml"]);

/**
 * Refuses a web page served for a file that is not listed as one, where
 * the listed size cannot tell it from the file: a file listed without a
 * size, or an ingested tabular file (served longer than listed).
 */
function refuseStrayPage(
  response: Response,
  file: ContentFile,
  url: string,
): void {
  if (file.size !== null && !file.tabular) return;
  const served = mediaType(response.headers.get("content-type"));
  if (!PAGE_TYPES.has(served) || served === mediaType(file.contentType)) {
    return;
  }
  throw new RepoProtocolError(
    `the answer is a web page (Content-Type: ${served}), not the file, which is listed as ${
      file.contentType ?? "having no type"
    }: a login or error page?`,
    url,
  );
}

/** The media type of a `Content-Type` value, lower-cased, parameters dropped. */
function mediaType(value: string | null | undefined): string {
  return (value ?? "").split(";")[0].trim().toLowerCase();
}

function partial(
  response: Response,
  asked: Asked,
  file: ContentFile,
  url: string,
): Answer {
  const header = response.headers.get("content-range");
  const { first, last, total } = parseContentRange(header, url);
  if (total !== undefined) expectTotal(total, file, url);
  if (
    first !== asked.start ||
    (asked.end !== undefined && last! >= asked.end) ||
    (total !== undefined && last! >= total)
  ) {
    throw new RepoProtocolError(
      `asked ${
        rangeFor(asked, file)
      } but the answer's Content-Range is ${header}`,
      url,
    );
  }
  return {
    kind: "body",
    from: first,
    skip: 0,
    end: last! + 1,
    whole: false,
    total,
  };
}

function whole(
  response: Response,
  asked: Asked,
  file: ContentFile,
  url: string,
): Answer {
  const length = contentLength(response, url);
  if (length !== undefined) {
    expectTotal(length, file, url);
    if (asked.start > 0 && length <= asked.start) {
      return { kind: "none", total: length };
    }
  }
  return {
    kind: "body",
    from: 0,
    skip: asked.start,
    end: length,
    whole: true,
    total: length,
  };
}

function unsatisfiable(
  response: Response,
  asked: Asked,
  file: ContentFile,
  url: string,
): Answer {
  const header = response.headers.get("content-range");
  const total = header === null
    ? undefined
    : parseContentRange(header, url).total;
  if (total !== undefined) expectTotal(total, file, url);
  // A tabular file's listed size is the least it can be.
  const known = total ?? file.answeredSize ?? file.size ?? undefined;
  if (known !== undefined && asked.start < known) {
    throw new RepoProtocolError(
      `asked ${
        rangeFor(asked, file)
      } of a file of ${known} bytes, but the answer is 416 (range not satisfiable)`,
      url,
    );
  }
  return { kind: "none", total };
}

/** The body length a 200 promises; unknown when it is encoded or unsaid. */
function contentLength(response: Response, url: string): number | undefined {
  const value = response.headers.get("content-length");
  if (value === null || response.headers.has("content-encoding")) {
    return undefined;
  }
  if (!/^\d+$/.test(value.trim())) {
    throw new RepoProtocolError(
      `malformed Content-Length ${JSON.stringify(value)}`,
      url,
    );
  }
  return Number(value);
}

/**
 * Answers in the repository's and the object store's own formats: the JSON
 * envelope, its error form, and S3-style XML errors.
 *
 * @module
 */

import type { FailureRule } from "./faults.ts";

const FAILURE_TEXT: Record<number, [code: string, message: string]> = {
  400: [
    "InvalidRequest",
    "A guestbook response is required to download this file.",
  ],
  403: ["AccessDenied", "Access Denied"],
  404: ["NoSuchKey", "The specified key does not exist."],
  429: ["SlowDown", "Too many requests; the rate limit has been exceeded."],
  500: ["InternalError", "Internal server error."],
  502: ["BadGateway", "Bad gateway."],
  503: ["SlowDown", "Service unavailable; please reduce your request rate."],
  504: ["GatewayTimeout", "Gateway timeout."],
};

/**
 * A 200 JSON answer from pre-encoded bytes.
 *
 * @example
 * ```ts
 * import { jsonReply } from "./replies.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const response = jsonReply(new TextEncoder().encode('{"status":"OK","data":[]}'));
 * strictEqual(response.headers.get("content-type"), "application/json");
 * deepStrictEqual(await response.json(), { status: "OK", data: [] });
 * ```
 */
export function jsonReply(
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
): Response {
  return new Response(body, {
    headers: { "content-type": "application/json" },
  });
}

/**
 * The repository's error envelope, `{"status":"ERROR","message":...}`.
 *
 * @example
 * ```ts
 * import { envelopeError } from "./replies.ts";
 * import { deepStrictEqual, strictEqual } from "node:assert/strict";
 * const response = envelopeError(401, "Bad API key");
 * strictEqual(response.status, 401);
 * deepStrictEqual(await response.json(), { status: "ERROR", message: "Bad API key" });
 * ```
 */
export function envelopeError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ status: "ERROR", message }, { status, headers });
}

/**
 * An S3-style XML error.
 *
 * @example
 * ```ts
 * import { xmlError } from "./replies.ts";
 * import { strictEqual } from "node:assert/strict";
 * const response = xmlError(403, "AccessDenied", "Request has expired");
 * strictEqual(
 *   await response.text(),
 *   '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>',
 * );
 * ```
 */
export function xmlError(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  const body = `<?xml version="1.0" encoding="UTF-8"?>` +
    `<Error><Code>${code}</Code><Message>${
      escapeXml(message)
    }</Message></Error>`;
  return new Response(body, {
    status,
    headers: { ...headers, "content-type": "application/xml" },
  });
}

/**
 * The answer of a failure rule, in the format of the origin it fires on.
 * `key` is the `X-Repo-key` the request carried, quoted by `echoToken` rules;
 * `url` the request's URL, quoted by `echoUrl` rules.
 *
 * @example
 * ```ts
 * import { failureReply } from "./replies.ts";
 * import { strictEqual } from "node:assert/strict";
 * const response = failureReply({ target: "store", status: 503, count: 1, retryAfter: "2" }, "store");
 * strictEqual(response.headers.get("retry-after"), "2");
 * strictEqual(response.headers.get("content-type"), "application/xml");
 * await response.body?.cancel();
 * const echoed = failureReply({ target: "repo", status: 401, count: 1, echoToken: true }, "repo", "k-1");
 * strictEqual((await echoed.json()).message, "Bad API key k-1");
 * const quoted = failureReply({ target: "store", status: 502, count: 1, echoUrl: true }, "store", null, "http://s/k?sig=1");
 * strictEqual((await quoted.text()).includes("<Message>Bad gateway for http://s/k?sig=1</Message>"), true);
 * ```
 */
export function failureReply(
  rule: FailureRule,
  origin: "repo" | "store",
  key: string | null = null,
  url = "",
): Response {
  const [code, standard] = FAILURE_TEXT[rule.status] ??
    ["InternalError", `Injected failure ${rule.status}.`];
  const message = rule.echoToken
    ? (key === null ? "Bad API key" : `Bad API key ${key}`)
    : rule.echoUrl
    ? `${standard.replace(/\.$/, "")} for ${url}`
    : standard;
  const headers: Record<string, string> = rule.retryAfter === undefined
    ? {}
    : { "retry-after": rule.retryAfter };
  return origin === "repo"
    ? envelopeError(rule.status, message, headers)
    : xmlError(rule.status, code, message, headers);
}

/**
 * An answer nobody reads: its client went away while the request waited.
 *
 * @example
 * ```ts
 * import { clientGone } from "./replies.ts";
 * import { strictEqual } from "node:assert/strict";
 * strictEqual(clientGone().status, 499);
 * ```
 */
export function clientGone(): Response {
  return new Response(null, { status: 499 });
}

const XML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
};

function escapeXml(text: string): string {
  return text.replace(/[&<>]/g, (char) => XML_ESCAPES[char]);
}

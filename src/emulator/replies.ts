/**
 * Answers in the repository's and the object store's own formats: the JSON
 * envelope, its error form, and S3-style XML errors.
 *
 * @module
 */

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

/** A 200 JSON answer from pre-encoded bytes. */
export function jsonReply(
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
): Response {
  return new Response(body, {
    headers: { "content-type": "application/json" },
  });
}

/** The repository's error envelope, `{"status":"ERROR","message":...}`. */
export function envelopeError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ status: "ERROR", message }, { status, headers });
}

/** An S3-style XML error. */
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
 * The emulator's own error answer of `status`, in the format of the origin:
 * the repository's JSON envelope, the store's S3 XML.
 */
export function failureReply(
  status: number,
  origin: "repo" | "store",
  message?: string,
): Response {
  const [code, standard] = FAILURE_TEXT[status] ??
    ["InternalError", `Injected failure ${status}.`];
  return origin === "repo"
    ? envelopeError(status, message ?? standard)
    : xmlError(status, code, message ?? standard);
}

/** An answer nobody reads: its client went away while the request waited. */
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

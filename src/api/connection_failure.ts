/**
 * Connection failures no retry cures: a name that does not resolve, a TLS
 * handshake that fails, a port `fetch` will not connect to, and a refused
 * connection to a host that has not answered the instance yet (one retry,
 * in case it was starting). Each ends
 * in one line naming the host, the cause in plain words and the attempts
 * made.
 *
 * @module
 */

import { errorMessage, RepoConnectionError } from "../base/errors.ts";

/** Why a connection could not be made, when the runtime's words say. */
export type ConnectionFailure = "dns" | "refused" | "tls" | "blocked";

const PATTERNS: [ConnectionFailure, RegExp][] = [
  [
    "dns",
    /dns error|failed to lookup address|name or service not known|no address associated|nodename nor servname|ENOTFOUND|EAI_AGAIN|getaddrinfo/i,
  ],
  ["refused", /connection refused|ECONNREFUSED|ConnectionRefused/i],
  ["blocked", /Requests to port \d+ are blocked|bad port/i],
  [
    "tls",
    /invalid peer certificate|corrupt message|certificate|handshake|\bTLS\b|\bSSL\b|CERT_|UnknownIssuer/i,
  ],
];

/** What kind of connection failure `error` is, if one of the three. */
export function connectionFailure(
  error: unknown,
): ConnectionFailure | undefined {
  if (!(error instanceof RepoConnectionError)) return undefined;
  const said = `${error.reason} ${errorMessage(error.cause)}`;
  return PATTERNS.find(([, pattern]) => pattern.test(said))?.[0];
}

/**
 * Whether the failure ends the request after `attempts` attempts: at once
 * for DNS, TLS and a blocked port, after two for a refusal by a host that
 * never answered (`hasAnswered` says which did).
 */
export function isPermanent(
  error: unknown,
  attempts: number,
  hasAnswered: (url: string) => boolean,
): boolean {
  const kind = connectionFailure(error);
  if (kind === "refused") {
    return attempts >= 2 && !hasAnswered((error as RepoConnectionError).url);
  }
  return kind !== undefined;
}

/**
 * The one-line error for a connection failure given up on after
 * `attempts`: the host, the cause in plain words, the attempts; `error`
 * itself for other failures.
 */
export function explainConnection(error: unknown, attempts: number): unknown {
  const kind = connectionFailure(error);
  if (kind === undefined) return error;
  const { url } = error as RepoConnectionError;
  const { host, hostname, protocol } = new URL(url);
  const cause = {
    dns: `the name ${hostname} does not resolve (DNS lookup failed)`,
    refused: `nothing accepts connections at ${host} (connection refused)`,
    tls: `the ${protocol.slice(0, -1)} (TLS) handshake with ${host} failed`,
    blocked: `fetch refuses the port of ${host} (a port browsers block)`,
  }[kind];
  return new RepoConnectionError(
    `${protocol}//${host}`,
    `${cause}; ${attempts} attempt${attempts === 1 ? "" : "s"} made`,
    { cause: error },
  );
}

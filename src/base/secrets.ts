/**
 * The secrets no message of repo-fs may show: every API token given to a
 * `RepoFs` in this thread. Error classes pass their messages through
 * {@linkcode redact}, so a repository answer that echoes the token does
 * not carry it into a log.
 *
 * @module
 */

import type { Logger } from "./types.ts";

const secrets = new Set<string>();

/**
 * Adds `secret` to the values {@linkcode redact} blanks out, for the rest of
 * this thread's life: as given, as sent in a header, JSON-escaped and
 * percent-encoded.
 */
export function hideSecret(secret: string): void {
  const sent = httpTrimmed(secret);
  // fetch sends a header value trimmed; messages quote text JSON-escaped or
  // percent-encoded.
  const forms = [
    secret,
    sent,
    JSON.stringify(sent).slice(1, -1),
    encodeURIComponent(sent),
  ];
  for (const form of forms) if (form !== "") secrets.add(form);
}

/**
 * `value` without the whitespace HTTP strips from a header value's ends
 * (spaces, tabs, CR, LF): what `fetch` sends for it.
 */
export function httpTrimmed(value: string): string {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
}

/** `text` with every hidden secret replaced by `***`. */
export function redact(text: string): string {
  let clean = text;
  for (const secret of secrets) clean = clean.replaceAll(secret, "***");
  return clean;
}

/**
 * `logger` with every line passed through {@linkcode redact} first: lines
 * quote listing entries and servers' words, which may hold the token.
 */
export function redactingLogger(logger: Logger): Logger {
  return {
    debug: (msg) => logger.debug(redact(msg)),
    info: (msg) => logger.info(redact(msg)),
    warn: (msg) => logger.warn(redact(msg)),
  };
}

/**
 * Shortest secret that {@linkcode holdsSecret} looks for: a shorter one
 * (a test's `"tok"`) turns up by chance in any long URL.
 */
const SOUGHT_CHARS = 8;

/**
 * Whether `text` holds a hidden secret of 8 characters or more, as given or
 * percent-encoded: a URL that does must not be sent on, nor kept.
 */
export function holdsSecret(text: string): boolean {
  let plain: string | undefined;
  for (const secret of secrets) {
    if (secret.length < SOUGHT_CHARS) continue;
    if (text.includes(secret)) return true;
    plain ??= decoded(text);
    if (plain.includes(secret)) return true;
  }
  return false;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

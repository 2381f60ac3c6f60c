/**
 * The secrets no message of repo-fs may show: every API token given to a
 * `RepoFs` in this thread. Error classes pass their messages through
 * {@linkcode redact}, so a repository answer that echoes the token does
 * not carry it into a log.
 *
 * @module
 */

const secrets = new Set<string>();

/**
 * Adds `secret` to the values {@linkcode redact} blanks out, for the rest of
 * this thread's life.
 *
 * @example
 * ```ts
 * import { hideSecret, redact } from "./secrets.ts";
 * import { strictEqual } from "node:assert/strict";
 * hideSecret("s3cret-for-the-example");
 * strictEqual(redact("Bad API key s3cret-for-the-example"), "Bad API key ***");
 * ```
 */
export function hideSecret(secret: string): void {
  if (secret !== "") secrets.add(secret);
}

/**
 * `text` with every hidden secret replaced by `***`.
 *
 * @example
 * ```ts
 * import { redact } from "./secrets.ts";
 * import { equal } from "node:assert/strict";
 * equal(redact("nothing secret here"), "nothing secret here");
 * ```
 */
export function redact(text: string): string {
  let clean = text;
  for (const secret of secrets) clean = clean.replaceAll(secret, "***");
  return clean;
}

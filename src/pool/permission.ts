/**
 * A pool worker that cannot start for want of a Deno permission: no retry
 * helps, so the pool gives up at once with an error naming the flag to add
 * and what it must cover.
 *
 * @module
 */

/** Deno's words for a missing permission: `Requires read access to "…"`. */
const DENIED = /Requires (\w+) access to "([^"]+)"/;
/** The worker module, whose imports need the package's whole folder. */
const WORKER_MODULE = /[\\/]workers[\\/]range_worker\.ts$/;

/**
 * The error for a worker that failed to start with `reason`, when the
 * reason is a missing permission; `undefined` for any other reason.
 */
export function permissionError(reason: string): Error | undefined {
  const denied = DENIED.exec(reason);
  if (denied === null) return undefined;
  const [, kind, target] = denied;
  const scope = WORKER_MODULE.test(target)
    ? target.replace(WORKER_MODULE, "")
    : target;
  const what = scope === target
    ? ""
    : " (the library's folder, which its worker module imports from)";
  const message =
    `A RepoFsPool worker needs ${kind} access to "${target}": run deno with --allow-${kind}=${scope}${what}`;
  const NotCapable = (globalThis as { Deno?: typeof Deno }).Deno?.errors
    ?.NotCapable;
  const error = NotCapable ? new NotCapable(message) : new Error(message);
  if (!NotCapable) error.name = "NotCapable";
  return error;
}

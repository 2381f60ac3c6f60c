/**
 * `--name=value` flags of the benchmark scripts.
 *
 * @module
 */

/**
 * The value of `--name=value` in `Deno.args`, or `fallback`.
 *
 * @example
 * ```ts
 * import { flag } from "./flags.ts";
 * const mode = flag("mode", "dir");
 * ```
 */
export function flag(name: string, fallback: string): string {
  const hit = Deno.args.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
}

/**
 * A flag that must be a whole number above 0.
 *
 * @example
 * ```ts
 * import { countFlag } from "./flags.ts";
 * const rows = countFlag("rows", 2000);
 * ```
 */
export function countFlag(name: string, fallback: number): number {
  const value = Number(flag(name, String(fallback)));
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new Error(`bad --${name}`);
  }
  return value;
}

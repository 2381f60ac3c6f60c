/**
 * CPU time of the benchmark processes.
 *
 * @module
 */

import process from "node:process";

/**
 * This process's CPU time so far, user and system, all threads, in ms.
 *
 * @example
 * ```ts
 * import { cpuMs } from "./cpu_time.ts";
 * const before = cpuMs();
 * // … work …
 * console.log(`${cpuMs() - before} ms of CPU`);
 * ```
 */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

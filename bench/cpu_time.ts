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

/** Where a process's CPU time went, from Linux's `/proc/self`. */
export interface ThreadCpu {
  /** The thread that runs the script, ms. */
  main: number;
  /** Web Workers' threads (`worker-N`), ms. */
  workers: number;
  /** V8's own threads (compilers, garbage collector), ms. */
  v8: number;
  /** Every other thread (tokio and the like), ms. */
  other: number;
  /** The process's system CPU time, all threads, ms. */
  system: number;
  /** Page faults that needed no disk: mostly memory touched for the first time. */
  minorFaults: number;
}

/**
 * This process's {@linkcode ThreadCpu} so far, read from `/proc/self` (a
 * thread that ended is no longer counted, so take the difference over a
 * stretch in which none ends); `undefined` where there is no `/proc`.
 *
 * @example
 * ```ts
 * import { threadCpu } from "./cpu_time.ts";
 * const before = threadCpu();
 * // … work …
 * const after = threadCpu();
 * if (before && after) console.log(`${after.main - before.main} ms on the main thread`);
 * ```
 */
export function threadCpu(): ThreadCpu | undefined {
  let self: string[];
  try {
    self = procStat("/proc/self/stat");
  } catch {
    return undefined;
  }
  const cpu: ThreadCpu = {
    main: 0,
    workers: 0,
    v8: 0,
    other: 0,
    system: ticksMs(self[15]),
    minorFaults: Number(self[10]),
  };
  for (const { name } of Deno.readDirSync("/proc/self/task")) {
    let fields: string[];
    let comm: string;
    try {
      fields = procStat(`/proc/self/task/${name}/stat`);
      comm = Deno.readTextFileSync(`/proc/self/task/${name}/comm`).trim();
    } catch {
      continue;
    }
    const ms = ticksMs(fields[14]) + ticksMs(fields[15]);
    if (Number(name) === Deno.pid) cpu.main += ms;
    else if (comm.startsWith("worker-")) cpu.workers += ms;
    else if (comm.startsWith("V8 ")) cpu.v8 += ms;
    else cpu.other += ms;
  }
  return cpu;
}

/**
 * What {@linkcode threadCpu} counted since `before`; `undefined` where
 * there is no `/proc`.
 *
 * @example
 * ```ts
 * import { threadCpu, threadCpuSince } from "./cpu_time.ts";
 * const before = threadCpu();
 * // … work …
 * console.log(threadCpuSince(before)?.minorFaults);
 * ```
 */
export function threadCpuSince(
  before: ThreadCpu | undefined,
): ThreadCpu | undefined {
  const now = threadCpu();
  if (before === undefined || now === undefined) return undefined;
  const since = { ...now };
  for (const key of Object.keys(since) as (keyof ThreadCpu)[]) {
    since[key] -= before[key];
  }
  return since;
}

/**
 * The fields of a `/proc` `stat` line, numbered as in `man 5 proc` (1 is
 * the pid); the name in brackets may hold spaces, so the fields after it
 * are counted from its closing bracket.
 */
function procStat(path: string): string[] {
  const line = Deno.readTextFileSync(path);
  const after = line.slice(line.lastIndexOf(")") + 2).split(" ");
  return ["", "", "", ...after];
}

/** Linux's clock ticks (USER_HZ, 100 a second) in ms. */
const ticksMs = (ticks: string) => Number(ticks) * 10;

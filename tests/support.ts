import type { Logger } from "../mod.ts";

/** A logger that keeps what it is told, for assertions. */
export function recordingLogger(): Logger & {
  lines: { level: "debug" | "info" | "warn"; msg: string }[];
} {
  const lines: { level: "debug" | "info" | "warn"; msg: string }[] = [];
  return {
    lines,
    debug: (msg) => lines.push({ level: "debug", msg }),
    info: (msg) => lines.push({ level: "info", msg }),
    warn: (msg) => lines.push({ level: "warn", msg }),
  };
}

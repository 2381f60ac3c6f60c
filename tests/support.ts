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

/** `length` bytes that differ from file to file (`seed`) and along the file. */
export function patterned(length: number, seed = 0): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    bytes[i] = (i * 31 + seed * 17 + (i >> 8)) & 255;
  }
  return bytes;
}

import { createHash } from "node:crypto";
import { join, relative } from "node:path";
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

/** Longer than any read of a test may take: one still running then has hung. */
const HANG_MS = 45_000;

/** `promise`, or a failure naming `what` when it takes longer than {@linkcode HANG_MS}: it hung. */
export async function bounded<T>(
  promise: Promise<T>,
  what: string,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} still running after ${HANG_MS} ms`)),
      HANG_MS,
    );
  });
  try {
    return await Promise.race([promise, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** The MD5 of `text`, as listings give it. */
export function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

/**
 * Every file below `dir` (symlinks left out), as relative paths with `/`,
 * sorted; `[]` when `dir` does not exist.
 */
export async function filesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string) => {
    for await (const entry of Deno.readDir(at)) {
      const full = join(at, entry.name);
      if (entry.isSymlink) continue;
      if (entry.isDirectory) await walk(full);
      else found.push(relative(dir, full).replaceAll("\\", "/"));
    }
  };
  await walk(dir).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return found.sort();
}

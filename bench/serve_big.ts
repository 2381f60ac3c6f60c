// Starts the emulator in its own process with one big file, `big.bin`, so
// that a benchmark can read it without the served bytes counting towards
// the reader's memory. Prints one JSON line on stdout:
//   {"host","pid","path","fileId","size","serverPid","mode","startMs"}
// and serves until its stdin closes (the parent exits or closes the pipe)
// or it gets SIGTERM/SIGINT; then it shuts the emulator down and exits.
//
// Started by bench/stream_rss.ts and `bench/content_reads.ts --external`;
// by hand (Ctrl-D or Ctrl-C to stop):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env --allow-write=/tmp bench/serve_big.ts --size=1073741824 --mode=dir
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env bench/serve_big.ts --size=67108864 --mode=memory
//
// --mode=dir writes the file with a streaming write (1 MiB at a time) into a
// fresh temp folder and starts the emulator with `dir` pointing at it. The
// emulator's `dir` mode is NOT lazy: it reads every file whole at start
// (Deno.readFile in src/emulator/sources.ts) and buildDataset copies the
// bytes once more (new Uint8Array(content)) and hashes them, so this process
// holds the file in memory (about 2x its size while starting). The temp
// folder is removed as soon as the emulator has started, and again on exit.
// --mode=memory hands the emulator an in-memory Uint8Array instead.

import { spawnChildServer } from "./child_server.ts";
import { flag } from "./flags.ts";
import process from "node:process";
import { startEmulator } from "../emulator.ts";

const PATH = "big.bin";
const BLOCK = 1 << 20;

/**
 * Fills `out` with the bytes of the benchmark file at `offset..`: a fixed
 * pattern whose 8-byte-aligned words also carry their own position, so a
 * misplaced range is visible.
 */
export function fillPattern(out: Uint8Array, offset: number): Uint8Array {
  for (let i = 0; i < out.length; i++) {
    const at = offset + i;
    out[i] = (at % 8 === 0) ? (at / 8) & 255 : ((at * 31) ^ (at >>> 11)) & 255;
  }
  return out;
}

/** What the server prints on its stdout once it serves. */
export interface BigServerInfo {
  /** Repository origin. */
  host: string;
  /** Dataset pid. */
  pid: string;
  /** Path of the big file in the dataset. */
  path: string;
  /** Its file id. */
  fileId: number;
  /** Its size in bytes. */
  size: number;
  /** The server's process id. */
  serverPid: number;
  /** `dir` or `memory`. */
  mode: string;
  /** Time from process start to serving, ms. */
  startMs: number;
}

/** A running serve_big.ts child. */
export interface BigServer extends AsyncDisposable {
  /** What it printed. */
  info: BigServerInfo;
  /** Its resident set now and at peak (getrusage maxrss), bytes. */
  memory(): Promise<{ rss: number; peak: number }>;
  /** Closes its stdin and waits for it to exit (SIGTERM after 10 s). */
  stop(): Promise<void>;
}

/**
 * Starts this script as a child (`deno` must be on PATH; the parent needs
 * `--allow-run=deno`) and waits for its JSON line.
 */
export async function spawnBigServer(
  size: number,
  mode: "dir" | "memory",
): Promise<BigServer> {
  const tmp = Deno.env.get("TMPDIR") ?? "/tmp";
  const server = await spawnChildServer<BigServerInfo>(
    new URL(import.meta.url),
    [`--size=${size}`, `--mode=${mode}`],
    "serve_big.ts",
    [
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      ...(mode === "dir" ? [`--allow-write=${tmp}`] : []),
    ],
  );
  return {
    info: server.info,
    memory: () => server.ask("memory"),
    stop: server.stop,
    [Symbol.asyncDispose]: server.stop,
  };
}

async function writeBigFile(file: string, size: number): Promise<void> {
  const handle = await Deno.open(file, { write: true, createNew: true });
  try {
    const block = new Uint8Array(BLOCK);
    for (let offset = 0; offset < size; offset += BLOCK) {
      const part = block.subarray(0, Math.min(BLOCK, size - offset));
      fillPattern(part, offset);
      let written = 0;
      while (written < part.length) {
        written += await handle.write(part.subarray(written));
      }
    }
  } finally {
    handle.close();
  }
}

if (import.meta.main) {
  const size = Number(flag("size", String(2 ** 30)));
  const mode = flag("mode", "dir");
  if (!Number.isSafeInteger(size) || size <= 0) throw new Error("bad --size");
  if (mode !== "dir" && mode !== "memory") throw new Error("bad --mode");
  const started = performance.now();
  let dir: string | undefined;
  const removeDir = async () => {
    if (dir === undefined) return;
    const gone = dir;
    dir = undefined;
    await Deno.remove(gone, { recursive: true }).catch(() => {});
  };
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  try {
    if (mode === "dir") {
      dir = await Deno.makeTempDir({ prefix: "repo-fs-bench-" });
      await writeBigFile(`${dir}/${PATH}`, size);
      emu = await startEmulator({ dir });
    } else {
      const bytes = new Uint8Array(size);
      for (let offset = 0; offset < size; offset += BLOCK) {
        fillPattern(bytes.subarray(offset, offset + BLOCK), offset);
      }
      emu = await startEmulator({ files: { [PATH]: bytes } });
    }
  } finally {
    await removeDir();
  }
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await emu.close();
      await removeDir();
      Deno.exit(0);
    })();
    return stopping;
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => void stop());
  }
  console.log(JSON.stringify({
    host: emu.host,
    pid: emu.pid,
    path: PATH,
    fileId: emu.fileId(PATH),
    size,
    serverPid: Deno.pid,
    mode,
    startMs: Math.round(performance.now() - started),
  }));
  // Serve until the parent closes our stdin; a "memory" line asks for our
  // resident set (now and peak, bytes) as one JSON line.
  const input = Deno.stdin.readable.pipeThrough(new TextDecoderStream());
  for await (const text of input) {
    for (const _ of text.matchAll(/memory\n/g)) {
      console.log(JSON.stringify({
        rss: Deno.memoryUsage().rss,
        peak: process.resourceUsage().maxRSS * 1024,
      }));
    }
  }
  await stop();
}

// The dataset of bench/zarr_read.ts, and a child process serving it with the
// emulator, so that the emulator's CPU work does not run on the reader's
// thread. The child builds a gzip-compressed float32 Zarr v2 array with
// fixtures/zarr_writer.ts (`buildZarrStore`, consolidated), starts the
// emulator on it and prints one JSON line on stdout (`ZarrServerInfo`).
// Then it answers one JSON line per command line on stdin:
//   `counters`    the emulator's counters, plus `cpuMs`: this process's
//                 CPU time so far (user + system, all threads)
//   `reset`       zeroes them (emu.resetCounters())
//   `latency <n>` sets emu.faults.latencyMs to n
// and stops when its stdin closes or on SIGTERM/SIGINT.
// With `--store=nginx` the store's objects are served by Debian's nginx
// (tests/nginx_server.ts) through the emulator's `storeOrigin`: a static
// server whose CPU cost per request is far below the emulator's, as a
// remote store costs the reader's machine none. The emulator then serves
// only the listing and HEADs, and counts no store GETs; `latency <n>`
// restarts nginx with that latency too (tests/nginx_server.ts needs its
// echo module for it); `cpuMs` is this process's alone.
//
// Started by bench/zarr_read.ts; by hand (Ctrl-D to stop):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env bench/zarr_serve.ts --rows=2000 --side=128
// (`--cols=N` makes the shape [rows, side, N]; it defaults to --side.)

import { commandLines, spawnChildServer } from "./child_server.ts";
import { cpuMs } from "./cpu_time.ts";
import { countFlag, flag } from "./flags.ts";
import { startEmulator } from "../emulator.ts";
import type { EmulatorCounters } from "../emulator.ts";
import { buildZarrStore } from "../fixtures/zarr_writer.ts";
import { type NginxServer, startNginx } from "../tests/nginx_server.ts";

/** Dataset directory holding the Zarr group. */
export const ZARR_ROOT = "bench.zarr";
/** The array's path in the group. */
export const ARRAY_PATH = "field";
/** A small file outside the group; readers warm their workers with it. */
export const WARMUP_FILE = "warmup.txt";

/**
 * Shape [rows, side, cols], chunks [1, side, cols]: one chunk per row.
 * `cols` defaults to `side`.
 */
export interface ZarrLayout {
  rows: number;
  side: number;
  cols?: number;
}

/**
 * The array's values in C order: a smooth field plus uniform noise of
 * amplitude 1, rounded to 0.01 as measured data often is. gzip shrinks
 * it to about 56 % (ratio ~1.8), so decoding is real work.
 */
export function referenceValues(
  { rows, side, cols = side }: ZarrLayout,
): Float32Array {
  const values = new Float32Array(rows * side * cols);
  let state = 0x9e3779b9;
  const noise = () => {
    // xorshift32, in [-0.5, 0.5)
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32 - 0.5;
  };
  let i = 0;
  for (let t = 0; t < rows; t++) {
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < cols; x++) {
        const v = 10 * Math.sin(t / 50 + x / 17) +
          5 * Math.cos(y / 11 - t / 30) + noise();
        values[i++] = Math.round(v * 100) / 100;
      }
    }
  }
  return values;
}

/** FNV-1a over the 32-bit words of the values (bit patterns). */
export function checksum(values: Float32Array): number {
  const words = new Uint32Array(
    values.buffer,
    values.byteOffset,
    values.length,
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h = Math.imul(h ^ words[i], 0x01000193);
  }
  return h >>> 0;
}

/** What the child prints once it serves. */
export interface ZarrServerInfo {
  /** Repository origin. */
  host: string;
  /** Dataset pid. */
  pid: string;
  /** `[rows, side, cols]`. */
  shape: number[];
  /** `[1, side, cols]`. */
  chunks: number[];
  /** Chunk files written (every chunk holds data). */
  chunkFiles: number;
  /** Decoded bytes of one chunk. */
  chunkRawBytes: number;
  /** Stored (gzip) bytes of all chunks. */
  chunkStoredBytes: number;
  /** Every file of the dataset, Zarr metadata and `WARMUP_FILE` included. */
  files: number;
  /** Zarr metadata files in the array's directory (`.zarray`, `.zattrs`). */
  arrayMetaFiles: number;
  /** `checksum` of the values written. */
  checksum: number;
  /** Time to build the values and the store, ms. */
  buildMs: number;
  /** The child's process id. */
  serverPid: number;
}

/** The emulator's counters and the child's CPU time so far, ms. */
export type ServerCounters = EmulatorCounters & { cpuMs: number };

/** A running zarr_serve.ts child. */
export interface ZarrServer extends AsyncDisposable {
  info: ZarrServerInfo;
  counters(): Promise<ServerCounters>;
  reset(): Promise<void>;
  setLatency(ms: number): Promise<void>;
  /** Closes its stdin and waits for it to exit (SIGTERM after 10 s). */
  stop(): Promise<void>;
}

/** Where the chunks are served from: the emulator's own store, or nginx. */
export type StoreServer = "emulator" | "nginx";

/**
 * Starts this script as a child (`deno` on PATH; the parent needs
 * `--allow-run=deno`) and waits for its JSON line.
 */
export async function spawnZarrServer(
  layout: ZarrLayout,
  store: StoreServer = "emulator",
): Promise<ZarrServer> {
  const server = await spawnChildServer<ZarrServerInfo>(
    new URL(import.meta.url),
    [
      `--rows=${layout.rows}`,
      `--side=${layout.side}`,
      `--cols=${layout.cols ?? layout.side}`,
      `--store=${store}`,
    ],
    "zarr_serve.ts",
    [
      "--allow-net=127.0.0.1",
      "--allow-read",
      "--allow-env",
      ...store === "nginx" ? ["--allow-write", "--allow-run=nginx"] : [],
    ],
  );
  return {
    info: server.info,
    counters: () => server.ask<ServerCounters>("counters"),
    reset: async () => void await server.ask("reset"),
    setLatency: async (ms) => void await server.ask(`latency ${ms}`),
    stop: server.stop,
    [Symbol.asyncDispose]: server.stop,
  };
}

if (import.meta.main) {
  const layout = {
    rows: countFlag("rows", 2000),
    side: countFlag("side", 128),
  };
  const { rows, side } = layout;
  const cols = countFlag("cols", side);
  const started = performance.now();
  const data = referenceValues({ ...layout, cols });
  const store = await buildZarrStore([{
    path: ARRAY_PATH,
    data,
    shape: [rows, side, cols],
    chunks: [1, side, cols],
    compressor: "gzip",
  }], { format: 2, consolidated: true, prefix: ZARR_ROOT });
  const chunkKey = new RegExp(`^${ZARR_ROOT}/${ARRAY_PATH}/\\d+\\.0\\.0$`);
  let chunkFiles = 0;
  let chunkStoredBytes = 0;
  let arrayMetaFiles = 0;
  for (const [key, bytes] of Object.entries(store)) {
    if (chunkKey.test(key)) {
      chunkFiles++;
      chunkStoredBytes += bytes.length;
    } else if (key.startsWith(`${ZARR_ROOT}/${ARRAY_PATH}/.`)) {
      arrayMetaFiles++;
    }
  }
  const files = { ...store, [WARMUP_FILE]: "warm-up\n" };
  const buildMs = Math.round(performance.now() - started);
  let nginx: NginxServer | undefined;
  let storeRoot: string | undefined;
  if (flag("store", "emulator") === "nginx") {
    storeRoot = await Deno.makeTempDir({ prefix: "zarr_serve_" });
    nginx = await startNginx(storeRoot);
  }
  const emu = await startEmulator({ files, storeOrigin: nginx?.origin });
  if (storeRoot !== undefined) await emu.writeStore(storeRoot);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await emu.close();
      await nginx?.stop();
      if (storeRoot !== undefined) {
        await Deno.remove(storeRoot, { recursive: true });
      }
      Deno.exit(0);
    })();
    return stopping;
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    Deno.addSignalListener(signal, () => void stop());
  }
  console.log(JSON.stringify(
    {
      host: emu.host,
      pid: emu.pid,
      shape: [rows, side, cols],
      chunks: [1, side, cols],
      chunkFiles,
      chunkRawBytes: side * cols * 4,
      chunkStoredBytes,
      files: Object.keys(files).length,
      arrayMetaFiles,
      checksum: checksum(data),
      buildMs,
      serverPid: Deno.pid,
    } satisfies ZarrServerInfo,
  ));
  for await (const line of commandLines()) {
    const [command, value] = line.split(" ");
    if (command === "counters") {
      console.log(JSON.stringify(
        { ...emu.counters, cpuMs: cpuMs() } satisfies ServerCounters,
      ));
    } else if (command === "reset") {
      emu.resetCounters();
      console.log("{}");
    } else if (command === "latency") {
      emu.faults.latencyMs = Number(value);
      if (nginx !== undefined) {
        const port = Number(new URL(nginx.origin).port);
        await nginx.stop();
        nginx = await startNginx(storeRoot!, {
          port,
          latencyMs: Number(value),
        });
      }
      console.log("{}");
    } else {
      console.log(JSON.stringify({ error: `unknown command ${command}` }));
    }
  }
  await stop();
}

/**
 * The emulator of `bench/peers.ts` in its own process, so that serving
 * takes no time from the measured side: the files of a folder, 20 ms on
 * every request, and no redirect (the access URL serves the bytes itself,
 * one round trip a request for every reader). Prints
 * {@linkcode PeersServerInfo} when ready; answers each `counters` line with
 * the requests and bytes since the last one.
 *
 * @module
 */

import { commandLines, spawnChildServer } from "./child_server.ts";
import { flag } from "./flags.ts";
import { startEmulator } from "../emulator.ts";

/** What the server prints once it serves. */
export interface PeersServerInfo {
  /** Repository origin. */
  host: string;
  /** Dataset pid. */
  pid: string;
  /** Each file's access URL, by path. */
  urls: Record<string, string>;
}

/** Requests and body bytes since the last ask. */
export interface PeersCounters {
  requests: number;
  bytes: number;
}

/** A running peers_serve.ts child. */
export interface PeersServer extends AsyncDisposable {
  info: PeersServerInfo;
  /** Requests and bytes since the last call; zeroes them. */
  counters(): Promise<PeersCounters>;
}

/** Serves the files of `dir` (the parent needs `--allow-run=deno`). */
export async function spawnPeersServer(
  dir: string,
  latencyMs: number,
): Promise<PeersServer> {
  const server = await spawnChildServer<PeersServerInfo>(
    new URL(import.meta.url),
    [`--dir=${dir}`, `--latency=${latencyMs}`],
    "peers_serve.ts",
    ["--allow-net=127.0.0.1", "--allow-read", "--allow-env"],
  );
  return {
    info: server.info,
    counters: () => server.ask("counters"),
    [Symbol.asyncDispose]: server.stop,
  };
}

if (import.meta.main) {
  const dir = flag("dir", "");
  const emu = await startEmulator({
    dir,
    faults: { latencyMs: Number(flag("latency", "20")), redirect: false },
  });
  const urls: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    urls[entry.name] = `${emu.host}/api/access/datafile/${
      emu.fileId(entry.name)
    }`;
  }
  const info: PeersServerInfo = { host: emu.host, pid: emu.pid, urls };
  console.log(JSON.stringify(info));
  for await (const line of commandLines()) {
    if (line !== "counters") continue;
    const { heads, accessGets, listingCalls, accessBytes } = emu.counters;
    const counters: PeersCounters = {
      requests: heads + accessGets + listingCalls,
      bytes: accessBytes,
    };
    emu.resetCounters();
    console.log(JSON.stringify(counters));
  }
  await emu.close();
}

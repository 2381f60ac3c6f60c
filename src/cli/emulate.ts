/**
 * The `emulate` command: serves a local folder, or the sample dataset, as a
 * dataset through the repository emulator until Ctrl-C or SIGTERM.
 *
 * @module
 */

import { startEmulator } from "../emulator/server.ts";
import { RepoFs } from "../repo_fs.ts";
import { DEFAULT_NAMES } from "../api/repo_api.ts";
import { integerOption, stringOption, UsageError } from "./args.ts";
import type { Context } from "./context.ts";
import { onStopSignal } from "./signals.ts";

/**
 * `emulate [DIR] [--sample] [--port N] [--latency-ms N] [--token T]
 * [--token-header H] [--no-redirect]`: starts the emulator over `DIR` and/or the sample,
 * prints both origins and the `--host` and `--pid` (or `--dataset`) to use (one JSON object
 * with `--json`), waits for SIGINT or SIGTERM, then closes the servers.
 */
export async function emulate(context: Context): Promise<number> {
  const { line } = context;
  const port = integerOption(line, "port", { min: 0, max: 65535 });
  const latencyMs = integerOption(line, "latency-ms", { min: 0 });
  const token = stringOption(line, "token");
  const { tokenHeader } = context.names();
  const sample = line.values.sample === true;
  const pid = stringOption(line, "pid");
  const dir = context.arg(0);
  if (dir === undefined && !sample) {
    throw new UsageError("emulate needs DIR or --sample", "emulate");
  }
  if (dir !== undefined && !(await Deno.stat(dir)).isDirectory) {
    throw new Error(`${dir} is not a directory`);
  }
  const stop = Promise.withResolvers<void>();
  // Ctrl-C keeps its default action (exit now) while the folder is read:
  // a FIFO or a huge tree there must not make the command unstoppable.
  await using emu = await startEmulator({
    dir,
    sample,
    port,
    pid,
    token,
    tokenHeader,
    faults: {
      latencyMs: latencyMs ?? 0,
      redirect: line.values["no-redirect"] !== true,
    },
  }).catch((error) => {
    if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    throw new Error(
      `port ${port} is already in use: choose another --port, or --port 0 for any free one`,
      { cause: error },
    );
  });
  const dispose = onStopSignal(() => stop.resolve());
  try {
    const fs = new RepoFs({ host: emu.host, pid: emu.pid, token, tokenHeader });
    const files = (await fs.find("")).length;
    const target = `--host ${emu.host} --pid ${emu.pid}`;
    const page = `${emu.host}/dataset.xhtml?persistentId=${emu.pid}`;
    if (context.json) {
      await context.out.json({
        host: emu.host,
        storeOrigin: emu.storeOrigin,
        pid: emu.pid,
        dataset: page,
        alias: emu.alias,
        files,
      });
    } else {
      const source = [
        sample ? "the sample dataset" : undefined,
        dir,
      ].filter((s) => s !== undefined).join(" and ");
      await context.out.print([
        `Serving ${files} file${files === 1 ? "" : "s"} from ${source}`,
        `  repository:   ${emu.host}`,
        `  object store: ${emu.storeOrigin}`,
        `  ${target}`,
        `  or --dataset '${page}'`,
        `  (collection alias for datasets: ${emu.alias})`,
        ...(token === undefined ? [] : [
          `Requests without the --token value in ${tokenHeader} are refused (401): give it`,
          `with REPO_FS_TOKEN or --token-file${
            tokenHeader === DEFAULT_NAMES.tokenHeader
              ? ""
              : `, and REPO_FS_TOKEN_HEADER=${tokenHeader} or --token-header ${tokenHeader}`
          }.`,
        ]),
        `Example: repo-fs ${target} tree`,
        "Stop with Ctrl-C.",
      ].join("\n"));
    }
    await stop.promise;
  } finally {
    dispose();
  }
  context.out.stderr("Emulator stopped.\n");
  return 0;
}

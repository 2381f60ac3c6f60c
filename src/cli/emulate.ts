/**
 * The `emulate` command: serves a local folder as a dataset through the
 * repository emulator until Ctrl-C or SIGTERM.
 *
 * @module
 */

import { startEmulator } from "../emulator/server.ts";
import { RepoFs } from "../repo_fs.ts";
import { integerOption, stringOption } from "./args.ts";
import type { Context } from "./context.ts";
import { onStopSignal } from "./signals.ts";

/**
 * `emulate DIR [--port N]`: starts the emulator over `DIR`, prints the
 * `--host` and `--pid` to use (one JSON object with `--json`), waits for
 * SIGINT or SIGTERM, then closes the servers.
 */
export async function emulate(context: Context): Promise<number> {
  const port = integerOption(context.line, "port", { min: 0, max: 65535 });
  const pid = stringOption(context.line, "pid");
  const dir = context.arg(0)!;
  const stat = await Deno.stat(dir);
  if (!stat.isDirectory) throw new Error(`${dir} is not a directory`);
  const stop = Promise.withResolvers<void>();
  // Ctrl-C keeps its default action (exit now) while the folder is read:
  // a FIFO or a huge tree there must not make the command unstoppable.
  await using emu = await startEmulator({ dir, port, pid });
  const dispose = onStopSignal(() => stop.resolve());
  try {
    const fs = new RepoFs({ host: emu.host, pid: emu.pid });
    const files = (await fs.find("")).length;
    if (context.json) {
      await context.out.json({
        host: emu.host,
        pid: emu.pid,
        alias: emu.alias,
        files,
      });
    } else {
      await context.out.print([
        `Serving ${files} file${files === 1 ? "" : "s"} from ${dir}`,
        `  --host ${emu.host} --pid ${emu.pid}`,
        `  (collection alias for datasets: ${emu.alias})`,
        `Example: repo-fs --host ${emu.host} --pid ${emu.pid} tree`,
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

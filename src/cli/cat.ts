/**
 * The `cat` command: a file's bytes, or a byte range of it, to stdout.
 *
 * @module
 */

import { abortable } from "../base/abort_callbacks.ts";
import { integerOption } from "./args.ts";
import { type Context, selectedPaths } from "./context.ts";
import { orNothingFound } from "./nothing_found.ts";
import { INTERRUPTED, stopSignal } from "./signals.ts";

/**
 * `cat PATH [--start N] [--end N]`: a whole file is streamed one network
 * chunk at a time; a range (end exclusive, negatives from the end) is read
 * at once. SIGINT or SIGTERM stops the read: exit status 130.
 */
export async function cat(context: Context): Promise<number> {
  const start = integerOption(context.line, "start");
  const end = integerOption(context.line, "end");
  const fs = await context.dataset();
  const path = selectedPaths(context, "PATH")[0];
  const file = await orNothingFound(fs, path, fs.open(path));
  using stop = stopSignal();
  const { signal } = stop;
  // A write to a pipe nobody reads never ends: a stop does not wait for it
  // (the process exits, abandoning the write).
  const write = (bytes: Uint8Array) =>
    abortable(context.out.bytes(bytes), signal);
  try {
    if (start === undefined && end === undefined) {
      for await (const chunk of file.stream({ signal })) {
        await write(chunk);
      }
    } else {
      await write(await file.read(start, end, { signal }));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    context.out.error("interrupted");
    return INTERRUPTED;
  }
  return 0;
}

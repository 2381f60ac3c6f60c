/**
 * The `cat` command: a file's bytes, or a byte range of it, to stdout.
 *
 * @module
 */

import { integerOption } from "./args.ts";
import type { Context } from "./context.ts";
import { INTERRUPTED, stopSignal } from "./signals.ts";

/**
 * `cat PATH [--start N] [--end N]`: a whole file is streamed one network
 * chunk at a time; a range (end exclusive, negatives from the end) is read
 * at once. SIGINT or SIGTERM stops the read: exit status 130.
 *
 * @example
 * ```ts ignore
 * const status = await cat(context); // the bytes are on stdout
 * ```
 */
export async function cat(context: Context): Promise<number> {
  const start = integerOption(context.line, "start");
  const end = integerOption(context.line, "end");
  const fs = await context.dataset();
  const file = await fs.open(context.arg(0)!);
  using stop = stopSignal();
  const { signal } = stop;
  try {
    if (start === undefined && end === undefined) {
      for await (const chunk of file.stream({ signal })) {
        await context.out.bytes(chunk);
      }
    } else {
      await context.out.bytes(await file.read(start, end, { signal }));
    }
  } catch (error) {
    if (!signal.aborted) throw error;
    context.out.error("interrupted");
    return INTERRUPTED;
  }
  return 0;
}

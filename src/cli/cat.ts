/**
 * The `cat` command: a file's bytes, or a byte range of it, to stdout.
 *
 * @module
 */

import { integerOption } from "./args.ts";
import type { Context } from "./context.ts";

/**
 * `cat PATH [--start N] [--end N]`: a whole file is streamed one network
 * chunk at a time through `open(path).stream()`; a range is read with
 * `catFile` (end exclusive, negatives from the end).
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
  const path = context.arg(0)!;
  if (start === undefined && end === undefined) {
    const file = await fs.open(path);
    for await (const chunk of file.stream()) await context.out.bytes(chunk);
  } else {
    await context.out.bytes(await fs.catFile(path, { start, end }));
  }
  return 0;
}

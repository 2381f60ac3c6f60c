/**
 * The `cat` command: a file's bytes, or a byte range of it, to stdout.
 *
 * @module
 */

import { abortable } from "../base/abort_callbacks.ts";
import { integerOption, UsageError } from "./args.ts";
import { head, tail } from "../formats/text/head_tail.ts";
import { type Context, selectedPaths } from "./context.ts";
import { datasetView } from "./archive_path.ts";
import { orNothingFound } from "./nothing_found.ts";
import { INTERRUPTED, stopSignal } from "./signals.ts";

/**
 * `cat PATH [--start N] [--end N] [--head N | --tail N] [--max-line-bytes N]`:
 * a whole file is streamed one network chunk at a time; a range (end
 * exclusive, negatives from the end) is read at once; `--head`/`--tail`
 * print the first or last N lines, reading only what they need, a line
 * longer than `--max-line-bytes` (default 64 MiB) refused. SIGINT or SIGTERM stops the read:
 * exit status 130.
 */
export async function cat(context: Context): Promise<number> {
  const start = integerOption(context.line, "start");
  const end = integerOption(context.line, "end");
  const lines = lineCount(context);
  const fs = await datasetView(context);
  const path = selectedPaths(context, "PATH")[0];
  const file = await orNothingFound(fs, path, fs.open(path));
  using stop = stopSignal();
  const { signal } = stop;
  // A write to a pipe nobody reads never ends: a stop does not wait for it
  // (the process exits, abandoning the write).
  const write = (bytes: Uint8Array) =>
    abortable(context.out.bytes(bytes), signal);
  try {
    if (lines !== undefined) {
      const options = { signal, maxLineBytes: lines.maxLineBytes };
      const text = lines.from === "head"
        ? await head(fs, path, lines.n, options)
        : await tail(fs, path, lines.n, options);
      await write(new TextEncoder().encode(text.map((l) => `${l}\n`).join("")));
    } else if (start === undefined && end === undefined) {
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

/**
 * `--head N` or `--tail N`, which take the place of `--start`/`--end`,
 * with `--max-line-bytes`, which only they take.
 */
function lineCount(
  context: Context,
):
  | { from: "head" | "tail"; n: number; maxLineBytes?: number }
  | undefined {
  const given = (["head", "tail", "start", "end"] as const).filter((name) =>
    context.line.values[name] !== undefined
  );
  const from = given.find((name) => name === "head" || name === "tail");
  const maxLineBytes = integerOption(context.line, "max-line-bytes", {
    min: 1,
  });
  if (from === undefined) {
    if (maxLineBytes === undefined) return undefined;
    throw new UsageError("--max-line-bytes goes with --head or --tail", "cat");
  }
  if (given.length > 1) {
    throw new UsageError(`--${given.join(", --")} do not go together`, "cat");
  }
  return {
    from,
    n: integerOption(context.line, from, { min: 0 })!,
    maxLineBytes,
  };
}

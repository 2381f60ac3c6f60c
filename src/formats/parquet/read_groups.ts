/**
 * Row groups fetched all at once and each decoded as it arrives,
 * with nothing left running or unobserved when one fails.
 *
 * @module
 */

import type { ParquetBuffer } from "./parquet_file.ts";
import type { GroupPart } from "./read_plan.ts";

/** Chunks of one row group closer than this are fetched in one range (as hyparquet and Arrow do). */
const GAP = 8 << 10;

/**
 * `decode` of every part, in order. Every part's chunks are requested at
 * once, and each part is decoded as soon as its bytes are in, whichever
 * comes first. On the first failure `stop` is aborted, which ends the
 * fetches still running when `file` reads with its signal, every part is
 * let settle, and that failure is thrown.
 */
export async function readGroups<T>(
  file: ParquetBuffer,
  parts: GroupPart[],
  decode: (part: GroupPart, bytes: Uint8Array[]) => Promise<T>,
  stop: AbortController,
): Promise<T[]> {
  let failure: { error: unknown } | undefined;
  const decoded = parts.map((part) =>
    fetchGroup(file, part).then((bytes) => decode(part, bytes)).catch(
      (error) => {
        failure ??= { error };
        stop.abort(error);
        throw error;
      },
    )
  );
  await Promise.allSettled(decoded);
  if (failure) throw failure.error;
  return await Promise.all(decoded);
}

/** The bytes of each of `part`'s chunks, near ones fetched in one range. */
async function fetchGroup(
  file: ParquetBuffer,
  part: GroupPart,
): Promise<Uint8Array[]> {
  const order = part.chunks.map((_, i) => i).sort((a, b) =>
    part.chunks[a].start - part.chunks[b].start
  );
  const ranges: { start: number; end: number; chunks: number[] }[] = [];
  for (const i of order) {
    const { start, end } = part.chunks[i];
    const last = ranges.at(-1);
    if (last && start - last.end <= GAP && start >= last.start) {
      last.end = Math.max(last.end, end);
      last.chunks.push(i);
    } else ranges.push({ start, end, chunks: [i] });
  }
  const bytes: Uint8Array[] = [];
  const settled = await Promise.allSettled(ranges.map(async (range) => {
    const buffer = await file.slice(range.start, range.end);
    for (const i of range.chunks) {
      const { start, end } = part.chunks[i];
      bytes[i] = new Uint8Array(buffer, start - range.start, end - start);
    }
  }));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) throw failed.reason;
  return bytes;
}

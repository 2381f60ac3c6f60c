/**
 * Row groups fetched all at once, near chunks in one range, and each
 * decoded as it arrives, with nothing left running or unobserved when one
 * fails.
 *
 * @module
 */

import type { ParquetBuffer } from "./parquet_file.ts";
import { mergedRuns } from "../coalesced_reads.ts";
import type { GroupPart } from "./read_plan.ts";

/** Chunks closer than this are fetched in one range, of one row group or of neighbours (Arrow's hole limit). */
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
  const fetches = fetchParts(file, parts);
  const decoded = parts.map((part, p) =>
    fetches[p].then((bytes) => decode(part, bytes)).catch((error) => {
      failure ??= { error };
      stop.abort(error);
      throw error;
    })
  );
  await Promise.allSettled(decoded);
  if (failure) throw failure.error;
  return await Promise.all(decoded);
}

/**
 * For each part, the bytes of each of its chunks. Chunks at most
 * {@linkcode GAP} apart, of one part or of neighbouring ones, are fetched
 * in one range (at most `MERGE_MOST` bytes, coalesced_reads.ts); a part settles
 * when every range it needs has.
 */
function fetchParts(
  file: ParquetBuffer,
  parts: GroupPart[],
): Promise<Uint8Array[]>[] {
  const chunks = parts.flatMap((part, p) =>
    part.chunks.map(({ start, end }, i) => ({ p, i, start, end }))
  ).sort((a, b) => a.start - b.start);
  const ranges = mergedRuns(chunks, GAP).map((run) => ({
    start: run[0].start,
    end: Math.max(...run.map((chunk) => chunk.end)),
    chunks: run,
  }));
  const bytes = parts.map((part) => new Array<Uint8Array>(part.chunks.length));
  const waits = parts.map(() => [] as Promise<void>[]);
  for (const range of ranges) {
    const fetched = file.slice(range.start, range.end).then((buffer) => {
      for (const { p, i, start, end } of range.chunks) {
        bytes[p][i] = new Uint8Array(buffer, start - range.start, end - start);
      }
    });
    for (const p of new Set(range.chunks.map((chunk) => chunk.p))) {
      waits[p].push(fetched);
    }
  }
  return waits.map(async (needed, p) => {
    const failed = (await Promise.allSettled(needed)).find((s) =>
      s.status === "rejected"
    );
    if (failed) throw failed.reason;
    return bytes[p];
  });
}

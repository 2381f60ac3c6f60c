/**
 * The measuring loop of the format benchmarks: each way of reading runs
 * `reps` times, the ways alternated, every run cold (the reader builds a
 * fresh `RepoFs`); a Markdown table of the median wall time and of the
 * bytes and GETs the object store served in the last run.
 *
 * @module
 */

import type { Emulator } from "../emulator.ts";
import type { ByteSource } from "../zip.ts";
import { median, printTable } from "./synth_listing.ts";

/** One way of reading; `read` throws when what it read is wrong. */
export interface ColdRead {
  name: string;
  read: () => Promise<void>;
}

/**
 * Runs `reads` alternated `reps` times against `emu` and prints the table,
 * bytes as a share of `fileSize`.
 */
export async function compareColdReads(
  emu: Emulator,
  reads: ColdRead[],
  { reps, fileSize, what }: { reps: number; fileSize: number; what: string },
): Promise<void> {
  const rows = new Map<string, { ms: number[]; bytes: number; gets: number }>();
  for (let rep = 0; rep < reps; rep++) {
    for (const { name, read } of reads) {
      emu.resetCounters();
      const start = performance.now();
      await read();
      const ms = performance.now() - start;
      const row = rows.get(name) ?? { ms: [], bytes: 0, gets: 0 };
      row.ms.push(ms);
      row.bytes = emu.counters.storeBytes;
      row.gets = emu.counters.storeGets;
      rows.set(name, row);
    }
  }
  printTable(
    [what, `median ms (${reps} runs)`, "bytes from the store", "store GETs"],
    [...rows].map(([name, { ms, bytes, gets }]) => [
      name,
      median(ms).toFixed(0),
      `${bytes.toLocaleString("en")} (${
        (100 * bytes / fileSize).toFixed(2)
      } %)`,
      gets,
    ]),
  );
}

/** A downloaded file as a source of one path, for reading it locally. */
export function memorySource(name: string, bytes: Uint8Array): ByteSource {
  return {
    info: () => Promise.resolve({ name, type: "file", size: bytes.length }),
    catFile: (_, options = {}) =>
      Promise.resolve(bytes.subarray(options.start ?? 0, options.end)),
  };
}

// What writing into freshly allocated memory costs on this machine, against
// writing into memory already touched: the price a pool's `getArray` pays
// twice (each worker's part, then the joined result on the main thread)
// and `RepoFs` alone once.
//
// Command (from the repository root; about 20 s):
//   deno run bench/fresh_memory.ts
// Options: --mib=500 (the size of the result), --parts=8, --reps=5.

import { countFlag } from "./flags.ts";
import { median, printTable } from "./synth_listing.ts";

const MIB = countFlag("mib", 500);
const PARTS = countFlag("parts", 8);
const REPS = countFlag("reps", 5);
const length = MIB * 2 ** 18; // float32 values
const parts = Array.from(
  { length: PARTS },
  (_, i) => new Float32Array(length / PARTS).fill(i + 0.5),
);

/** Copies the parts into `out` one after another, as the pool's join does. */
function join(out: Float32Array): number {
  const t = performance.now();
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return performance.now() - t;
}

const fresh: number[] = [];
const touched: number[] = [];
for (let rep = 0; rep < REPS; rep++) {
  const out = new Float32Array(length);
  fresh.push(join(out));
  touched.push(join(out));
}

console.log(
  `# fresh_memory.ts ${Deno.args.join(" ")} — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno} — ${MIB} MiB result from ${PARTS} parts, ${REPS} reps\n`,
);
printTable(
  ["copy the parts into", "median ms", "min–max ms", "ms per MiB"],
  [["a new Float32Array (first touch)", fresh], [
    "the same array again",
    touched,
  ]].map(([what, times]) => {
    const list = times as number[];
    return [
      what as string,
      median(list).toFixed(0),
      `${Math.min(...list).toFixed(0)}–${Math.max(...list).toFixed(0)}`,
      (median(list) / MIB).toFixed(2),
    ];
  }),
);

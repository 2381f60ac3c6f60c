// Issue 3 benchmark (content): warm 64 KiB range reads of a 64 MiB file,
// repo-fs `catFile(path, { start, end })` vs a raw `fetch` of the same
// pre-signed URL with the same `Range` header (body read to an ArrayBuffer),
// at the same concurrency, against the same emulator, alternated in rounds.
//
// Commands (from the repository root; about 20 s each):
//   emulator in this process (it then shares this process's one JS thread):
//     deno run --allow-net=127.0.0.1 --allow-read --allow-env bench/content_reads.ts
//   emulator in a child process (bench/serve_big.ts --mode=memory):
//     deno run --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/content_reads.ts --external
//
// Offsets are random multiples of 64 KiB (the same sequence for both
// sides). URLs are warm: `fs.resolveDownloadUrl` runs once before timing, so
// neither side sends a HEAD while timed (checked with the emulator's counters
// in the in-process mode).

import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { median, printTable, prng } from "./synth_listing.ts";
import { fillPattern, spawnBigServer } from "./serve_big.ts";

const FILE_SIZE = 64 * 2 ** 20;
const CHUNK = 64 * 1024;
const PATH = "big.bin";
const ROUNDS = 20;
const READS_PER_ROUND = 1000; // per side: 20,000 reads per side per concurrency
const CONCURRENCIES = [8, 32];

const external = Deno.args.includes("--external");
console.log(
  `# content_reads.ts ${Deno.args.join(" ")} — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno}; emulator ${
    external ? "in a child process" : "in this process"
  }; ${FILE_SIZE / 2 ** 20} MiB file, ${CHUNK / 1024} KiB reads`,
);

let host: string, pid: string, fileId: number;
let close: () => Promise<void>;
let counters: { heads: number; storeGets: number } | undefined;
if (external) {
  const server = await spawnBigServer(FILE_SIZE, "memory");
  ({ host, pid, fileId } = server.info);
  close = server.stop;
} else {
  const bytes = fillPattern(new Uint8Array(FILE_SIZE), 0);
  const emu = await startEmulator({ files: { [PATH]: bytes } });
  ({ host, pid } = emu);
  fileId = emu.fileId(PATH);
  close = emu.close;
  counters = emu.counters;
}

try {
  const fs = new RepoFs({ host, pid });
  const url = await fs.resolveDownloadUrl(fileId);
  const headsBefore = counters?.heads;

  const random = prng(64);
  const blocks = FILE_SIZE / CHUNK;
  const offsets = Array.from(
    { length: READS_PER_ROUND },
    () => Math.floor(random() * blocks) * CHUNK,
  );

  const ours = async (offset: number) =>
    (await fs.catFile(PATH, { start: offset, end: offset + CHUNK }))
      .byteLength;
  const raw = async (offset: number) => {
    const response = await fetch(url, {
      headers: { Range: `bytes=${offset}-${offset + CHUNK - 1}` },
    });
    if (response.status !== 206) throw new Error(`raw got ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  };

  /** `offsets.length` reads, `concurrency` in flight; ms taken. */
  const run = async (
    concurrency: number,
    read: (offset: number) => Promise<number>,
  ): Promise<number> => {
    let next = 0;
    let bytes = 0;
    const t = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < offsets.length) {
          const got = await read(offsets[next++]);
          bytes += got; // not `bytes += await …`: that reads `bytes` before the await
        }
      }),
    );
    const ms = performance.now() - t;
    if (bytes !== offsets.length * CHUNK) throw new Error("short read");
    return ms;
  };

  // Content check (outside the timing): both sides return the file's bytes.
  for (const offset of offsets.slice(0, 16)) {
    const expected = fillPattern(new Uint8Array(CHUNK), offset);
    const got = await fs.catFile(PATH, { start: offset, end: offset + CHUNK });
    const rawGot = new Uint8Array(
      await (await fetch(url, {
        headers: { Range: `bytes=${offset}-${offset + CHUNK - 1}` },
      })).arrayBuffer(),
    );
    if (
      got.length !== CHUNK || rawGot.length !== CHUNK ||
      got.some((b, i) => b !== expected[i] || rawGot[i] !== b)
    ) {
      throw new Error(`wrong bytes at ${offset}`);
    }
  }

  const rows: (string | number)[][] = [];
  for (const concurrency of CONCURRENCIES) {
    // Warm-up: JIT and the connection pool, both sides.
    await run(concurrency, ours);
    await run(concurrency, raw);
    let oursMs = 0;
    let rawMs = 0;
    const pairRatios: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let o: number, r: number;
      if (round % 2 === 0) {
        o = await run(concurrency, ours);
        r = await run(concurrency, raw);
      } else {
        r = await run(concurrency, raw);
        o = await run(concurrency, ours);
      }
      oursMs += o;
      rawMs += r;
      pairRatios.push(r / o); // throughput ratio ours/raw for this round
    }
    const reads = ROUNDS * READS_PER_ROUND;
    const perSec = (ms: number) => reads / (ms / 1000);
    const mibPerSec = (ms: number) => (reads * CHUNK) / 2 ** 20 / (ms / 1000);
    const ratio = rawMs / oursMs;
    rows.push([
      concurrency,
      reads,
      `${perSec(oursMs).toFixed(0)} (${mibPerSec(oursMs).toFixed(0)} MiB/s)`,
      `${perSec(rawMs).toFixed(0)} (${mibPerSec(rawMs).toFixed(0)} MiB/s)`,
      `**${ratio.toFixed(2)}**`,
      `${median(pairRatios).toFixed(2)} (${
        Math.min(...pairRatios).toFixed(2)
      }–${Math.max(...pairRatios).toFixed(2)})`,
      ratio >= 0.8 ? "met" : "NOT met",
    ]);
  }
  if (counters && counters.heads !== headsBefore) {
    throw new Error(`HEADs while timed: ${counters.heads - headsBefore!}`);
  }
  console.log(
    `\n## Warm ${
      CHUNK / 1024
    } KiB range reads (reads/s; ${ROUNDS} alternated rounds of ${READS_PER_ROUND} reads per side)\n`,
  );
  printTable([
    "in flight",
    "reads per side",
    "repo-fs catFile",
    "raw fetch",
    "ours / raw (throughput)",
    "per-round ratio median (range)",
    "target >= 0.8",
  ], rows);
  if (counters) {
    console.log(
      `\nemulator: ${counters.heads} HEAD in total (none while timed), ${counters.storeGets} store GETs`,
    );
  }
} finally {
  await close();
}

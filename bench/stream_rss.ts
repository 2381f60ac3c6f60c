// Issue 3 benchmark (content): peak RSS of this process while streaming a
// 1 GiB file through `(await fs.open(path)).stream()`. The emulator runs in
// a child process (bench/serve_big.ts, `dir` mode: a 1 GiB temp file written
// with a streaming write), so the served bytes are not in this process.
//
// Command (from the repository root; about 15-20 s):
//   deno run --allow-net=127.0.0.1 --allow-read --allow-env --allow-run=deno bench/stream_rss.ts
// Optional: --mode=memory (in-memory emulator file instead of a temp folder),
// --size=<bytes> (default 1073741824), --order=ours,md5,raw (the passes and
// their order; RSS does not shrink back, so only the first pass starts from
// the true baseline — run with --order=raw,ours to give the raw reference
// the clean start), --gc-every=<n> (with --v8-flags=--expose-gc: a full GC
// every n chunks, to tell garbage awaiting collection from retained memory).
//
// --allow-run=deno starts the child; the child gets --allow-write for the
// temp folder only (TMPDIR or /tmp) and removes it once its emulator has read
// the file. RSS is Deno.memoryUsage().rss, sampled every 5 ms by a timer and
// after every chunk.

import { flag } from "./flags.ts";
import { createHash } from "node:crypto";
import { RepoFs } from "../mod.ts";
import { printTable } from "./synth_listing.ts";
import { spawnBigServer } from "./serve_big.ts";

const MiB = 2 ** 20;
const size = Number(flag("size", String(2 ** 30)));
const mode = flag("mode", "dir") as "dir" | "memory";
const rss = () => Deno.memoryUsage().rss;
const gc = (globalThis as { gc?: () => void }).gc;
const gcEvery = Number(flag("gc-every", "0"));
if (gcEvery > 0 && !gc) {
  throw new Error("--gc-every needs --v8-flags=--expose-gc");
}
const mib = (bytes: number) => (bytes / MiB).toFixed(1);

console.log(
  `# stream_rss.ts ${Deno.args.join(" ")} — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno}, file ${mib(size)} MiB, emulator mode ${mode}`,
);

await using server = await spawnBigServer(size, mode);
const { info } = server;
console.log(
  `emulator child pid ${info.serverPid} serving after ${info.startMs} ms`,
);

/** Streams a body to the end, sampling RSS; optionally hashing what it reads. */
async function drain(
  stream: ReadableStream<Uint8Array>,
  hash: boolean,
): Promise<
  {
    bytes: number;
    chunks: number;
    maxChunk: number;
    peak: number;
    start: number;
    ms: number;
    md5?: string;
    atPeak: Deno.MemoryUsage;
  }
> {
  const start = rss();
  let peak = start;
  let atPeak = Deno.memoryUsage();
  const sample = () => {
    const usage = Deno.memoryUsage();
    if (usage.rss > peak) {
      peak = usage.rss;
      atPeak = usage;
    }
  };
  const timer = setInterval(sample, 5);
  const md5 = hash ? createHash("md5") : undefined;
  let bytes = 0;
  let chunks = 0;
  let maxChunk = 0;
  const t = performance.now();
  try {
    for await (const chunk of stream) {
      bytes += chunk.byteLength;
      chunks++;
      maxChunk = Math.max(maxChunk, chunk.byteLength);
      md5?.update(chunk);
      if (gcEvery > 0 && chunks % gcEvery === 0) gc!();
      sample();
    }
  } finally {
    clearInterval(timer);
  }
  sample();
  return {
    atPeak,
    bytes,
    chunks,
    maxChunk,
    peak,
    start,
    ms: performance.now() - t,
    md5: md5?.digest("hex"),
  };
}

const fs = new RepoFs({ host: info.host, pid: info.pid });
const listed = await fs.info(info.path); // listing + table
const url = await fs.resolveDownloadUrl(info.fileId); // the one HEAD
await new Promise((resolve) => setTimeout(resolve, 200));
const baseline = rss();
console.log(
  `baseline RSS after startup, listing and HEAD: ${mib(baseline)} MiB`,
);

const rows: (string | number)[][] = [];
const target = 100 * MiB;
const row = (
  label: string,
  r: Awaited<ReturnType<typeof drain>>,
  check: string,
) => {
  const over = r.peak - baseline;
  rows.push([
    label,
    mib(r.bytes),
    r.bytes === size ? "yes" : "NO",
    check,
    r.chunks,
    `${(r.maxChunk / 1024).toFixed(0)} KiB`,
    (r.bytes / MiB / (r.ms / 1000)).toFixed(0),
    mib(r.start - baseline),
    `**${mib(over)}**`,
    `${mib(r.atPeak.heapTotal)} / ${mib(r.atPeak.external)}`,
    over < target ? "met" : "NOT met",
  ]);
};

const passes: Record<string, () => Promise<void>> = {
  // The measured case: repo-fs stream, nothing else done with the bytes.
  ours: async () => {
    const file = await fs.open(info.path);
    row("repo-fs `open().stream()`", await drain(file.stream(), false), "—");
  },
  // The same with an MD5 of every byte (a slower consumer), checked against
  // the listing's MD5.
  md5: async () => {
    const hashed = await drain((await fs.open(info.path)).stream(), true);
    row(
      "repo-fs `open().stream()` + MD5",
      hashed,
      hashed.md5 === listed.md5
        ? "MD5 = listing"
        : `MD5 MISMATCH ${hashed.md5}`,
    );
  },
  // Reference: a raw fetch of the same signed URL, body streamed.
  raw: async () => {
    const response = await fetch(url);
    row(
      "(reference) raw `fetch(url).body`",
      await drain(response.body!, false),
      "—",
    );
  },
};
const order = flag("order", "ours,md5,raw").split(",");
for (const name of order) await passes[name]();

const child = await server.memory();
console.log(
  "\n## Peak RSS while streaming (MiB; same process, passes in this order)\n",
);
printTable([
  "pass",
  "MiB read",
  "= size",
  "content",
  "chunks",
  "largest chunk",
  "MiB/s",
  "RSS at pass start − baseline",
  "peak RSS − baseline",
  "V8 heapTotal / external at peak",
  "target < 100 MiB",
], rows);
console.log(
  `\nbaseline ${mib(baseline)} MiB; final RSS ${mib(rss())} MiB; ` +
    `emulator child RSS ${mib(child.rss)} MiB (peak ${mib(child.peak)} MiB)`,
);
await server.stop();

// Issue 2 benchmark (tree): routing-table build vs JSON.parse, heap per
// file, `ls` of a 10-child directory in small and huge tables, and
// `glob("**/.zarray")` over 100k entries through a real RepoFs + emulator.
//
// Command (from the repository root; about 1.5 minutes):
//   deno run --v8-flags=--expose-gc --allow-net=127.0.0.1 --allow-read --allow-env bench/table_build.ts
// Optional arguments select sections and sizes, e.g. for profiling:
//   ... bench/table_build.ts build 100000        (only the build section, 100k)
//   ... bench/table_build.ts ls glob             (only those sections)
//
// Without --expose-gc the heap columns say "n/a" and timings run without a
// forced collection between phases.

import { RepoFs } from "../mod.ts";
import { startEmulator } from "../emulator.ts";
import { RoutingTable } from "../src/tree/routing_table.ts";
import {
  listFilesOver,
  listingJson,
  median,
  offlineDataset,
  pathOf,
  printTable,
  zarrLayout,
} from "./synth_listing.ts";

const gc = (globalThis as { gc?: () => void }).gc;
const settle = () => {
  gc?.();
  gc?.();
};
/** One forced collection before a timed phase, so earlier garbage is not billed to it. */
const collect = () => gc?.();
const heapUsed = () => Deno.memoryUsage().heapUsed;
const now = () => performance.now();
const ms = (x: number) => x.toFixed(x < 10 ? 2 : 1);
const us = (x: number) => (x * 1000).toFixed(2);

const args = Deno.args;
const sections = new Set(args.filter((a) => /^[a-z]+$/.test(a)));
const sizes = args.filter((a) => /^\d+$/.test(a)).map(Number);
const want = (name: string) => sections.size === 0 || sections.has(name);

console.log(
  `# table_build.ts — ${
    new Date().toISOString()
  } — Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, gc ${
    gc ? "exposed" : "NOT exposed"
  }`,
);

/** What RepoFs#buildTable does with the listing answer. */
async function buildTable(
  listFiles: ReturnType<typeof listFilesOver>,
): Promise<RoutingTable> {
  return RoutingTable.build(await listFiles());
}

/** JSON.parse of the listing text, in ms. */
function timeParse(text: string, n: number): number {
  collect();
  const t = now();
  const parsed = JSON.parse(text);
  const dt = now() - t;
  if (parsed.data.latestVersion.files.length !== n) throw new Error("?");
  return dt;
}

/**
 * RepoFs's path from the answer's text: `listFiles` (body, JSON.parse,
 * envelope), then `RoutingTable.build` over the lazy conversion generator.
 */
async function timeBuild(
  listFiles: ReturnType<typeof listFilesOver>,
  n: number,
): Promise<{ listMs: number; buildMs: number }> {
  collect();
  let t = now();
  const files = await listFiles();
  const listMs = now() - t;
  collect();
  t = now();
  const table = RoutingTable.build(files);
  const buildMs = now() - t;
  if (table.fileCount !== n) throw new Error(`${table.fileCount} != ${n}`);
  return { listMs, buildMs };
}

/** The conversion alone (generator drained to an array), then the table alone. */
async function timeParts(
  listFiles: ReturnType<typeof listFilesOver>,
): Promise<{ convertMs: number; tableMs: number }> {
  collect();
  const files = await listFiles();
  collect();
  let t = now();
  const listed = Array.from(files);
  const convertMs = now() - t;
  collect();
  t = now();
  RoutingTable.build(listed);
  return { convertMs, tableMs: now() - t };
}

/** Heap the parsed listing holds, the text excluded (held by the caller). */
function parsedHeap(text: string): number {
  settle();
  const h0 = heapUsed();
  const parsed = JSON.parse(text);
  settle();
  const bytes = heapUsed() - h0;
  if (parsed.status !== "OK") throw new Error("bad listing");
  return bytes;
}

// ---------------------------------------------------------------------------
// 1. Build (raw entries -> ListedFile -> RoutingTable.build) vs JSON.parse.
// ---------------------------------------------------------------------------
const sectionStart = now();
if (want("build")) {
  const plan: [number, number][] = [
    [10_000, 21],
    [100_000, 9],
    [1_000_000, 3],
  ];
  const rows: (string | number)[][] = [];
  const breakdown: (string | number)[][] = [];
  const heapRows: (string | number)[][] = [];
  for (const [n, reps] of plan) {
    if (sizes.length > 0 && !sizes.includes(n)) continue;
    const genStart = now();
    const { text } = listingJson(n);
    console.log(
      `\n${n} entries: listing JSON ${
        (text.length / 2 ** 20).toFixed(1)
      } MiB (${(text.length / n).toFixed(0)} B/entry), made in ${
        ms(now() - genStart)
      } ms`,
    );
    const listFiles = listFilesOver(text);

    const parseMs: number[] = [];
    const listMs: number[] = [];
    const buildMs: number[] = [];
    const ratios: number[] = [];
    const convertMs: number[] = [];
    const tableMs: number[] = [];
    for (let r = 0; r < reps; r++) {
      // Alternate which side goes first, to share out drift fairly.
      let p: number, b: { listMs: number; buildMs: number };
      if (r % 2 === 0) {
        p = timeParse(text, n);
        b = await timeBuild(listFiles, n);
      } else {
        b = await timeBuild(listFiles, n);
        p = timeParse(text, n);
      }
      parseMs.push(p);
      listMs.push(b.listMs);
      buildMs.push(b.buildMs);
      ratios.push(b.buildMs / p);
      if (r < 3 && (n < 1_000_000 || r === 0)) {
        const parts = await timeParts(listFiles);
        convertMs.push(parts.convertMs);
        tableMs.push(parts.tableMs);
      }
    }
    console.error(
      `(${n}: timings done after ${ms((now() - genStart) / 1000)} s)`,
    );
    const ratio = median(buildMs) / median(parseMs);
    rows.push([
      n.toLocaleString("en"),
      reps,
      ms(median(parseMs)),
      ms(median(listMs)),
      ms(median(buildMs)),
      `**${ratio.toFixed(2)}**`,
      `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
      ratio <= 2 ? "met" : "NOT met",
    ]);
    breakdown.push([
      `${n.toLocaleString("en")} (${convertMs.length} reps)`,
      ms(median(convertMs)),
      ms(median(tableMs)),
      ms(median(convertMs) + median(tableMs)),
      ms(median(buildMs)),
      `${(median(buildMs) / n * 1e6).toFixed(0)} ns`,
    ]);

    // Heap per entry: the parsed JSON, and the table once the JSON is gone
    // (as in RepoFs after the listing answer), both from a collected baseline.
    if (gc) {
      const parsedBytes = parsedHeap(text);
      settle();
      const h0 = heapUsed();
      // In a separate async function, so that no register of this frame
      // keeps the parsed listing alive once the table is built.
      const table = await buildTable(listFiles);
      settle();
      const tableBytes = heapUsed() - h0;
      heapRows.push([
        n.toLocaleString("en"),
        (parsedBytes / n).toFixed(0),
        (tableBytes / n).toFixed(0),
        (tableBytes / parsedBytes).toFixed(2),
        `${table.fileCount} files, ${table.directoryCount} dirs`,
      ]);
    } else {
      heapRows.push([n.toLocaleString("en"), "n/a", "n/a", "n/a", ""]);
    }
  }
  console.log("\n## Build vs JSON.parse (ms, medians; same run, alternated)\n");
  printTable([
    "entries",
    "reps",
    "JSON.parse",
    "listFiles (parse+envelope)",
    "convert+build",
    "build / parse",
    "paired ratio range",
    "target <= 2",
  ], rows);
  console.log("\n## Where the build time goes (ms, medians)\n");
  printTable([
    "entries",
    "conversion only (listedFiles → array)",
    "RoutingTable.build of that array",
    "sum",
    "convert+build (streamed)",
    "per entry",
  ], breakdown);
  console.log("\n## Heap per entry (bytes, after gc)\n");
  printTable([
    "entries",
    "parsed JSON",
    "table (JSON released)",
    "table / parsed",
    "table",
  ], heapRows);
}

// ---------------------------------------------------------------------------
// 2. ls of a 10-child directory (a store: .zgroup, .zattrs, var0..var7) in a
//    1k and a 1M table, through RepoFs.ls; first ls (sorts) and repeated ls.
// ---------------------------------------------------------------------------
console.error(`(build section: ${ms((now() - sectionStart) / 1000)} s)`);
const lsStart = now();
if (want("ls")) {
  const setups = [1_000, 1_000_000].map((n) => {
    const { serialized, stores } = offlineDataset(n);
    return {
      n,
      stores,
      serialized,
      first: [] as number[],
      firstGc: [] as number[],
      again: [] as number[],
      cycle: [] as number[],
    };
  });
  // The 1k table has 9 complete stores; the same number of distinct
  // directories is listed in both tables (one batch = 9 stores). Both
  // tables are alive while either is measured, so both sides see the same
  // heap and GC state; only the table size differs.
  const BATCH = 9;
  const CALLS = 2_000; // per repeated-ls sample
  type Setup = (typeof setups)[number];
  /**
   * First ls of each store of a fresh instance (its own, unsorted table),
   * right after the build ("as built") or after a full GC, which moves the
   * table's objects and leaves them out of the CPU caches ("after gc").
   */
  const firstLs = async (
    setup: Setup,
    afterGc: boolean,
  ): Promise<RepoFs> => {
    const fs = RepoFs.fromSerialized(setup.serialized);
    await fs.info("");
    if (afterGc) gc?.();
    for (let b = 0; b + BATCH <= setup.stores.length; b += BATCH) {
      const batch = setup.stores.slice(b, b + BATCH);
      const t = now();
      for (const store of batch) await fs.ls(store);
      (afterGc ? setup.firstGc : setup.first).push((now() - t) / BATCH);
    }
    return fs;
  };
  /** Repeated ls of the same 9 stores, one sample of CALLS calls. */
  const repeatedLs = async (fs: RepoFs, stores: string[]) => {
    const passes = Math.ceil(CALLS / stores.length);
    const t = now();
    for (let p = 0; p < passes; p++) {
      for (const store of stores) await fs.ls(store);
    }
    return (now() - t) / (passes * stores.length);
  };
  const [small, big] = setups;
  for (let round = 0; round < 3; round++) {
    if (gc) {
      await firstLs(big, true);
      for (let i = 0; i < 10; i++) await firstLs(small, true);
    }
    const bigFs = await firstLs(big, false);
    let smallFs!: RepoFs;
    for (let i = 0; i < 40; i++) smallFs = await firstLs(small, false);
    const smallBatch = small.stores.slice(0, BATCH);
    const bigBatch = big.stores.slice(0, BATCH);
    settle();
    for (let warm = 0; warm < 3; warm++) {
      await repeatedLs(smallFs, smallBatch);
      await repeatedLs(bigFs, bigBatch);
    }
    for (let k = 0; k < 10; k++) {
      if (k % 2 === 0) {
        small.again.push(await repeatedLs(smallFs, smallBatch));
        big.again.push(await repeatedLs(bigFs, bigBatch));
      } else {
        big.again.push(await repeatedLs(bigFs, bigBatch));
        small.again.push(await repeatedLs(smallFs, smallBatch));
      }
    }
    // Cycling over all stores of the big table: a larger working set.
    big.cycle.push(await repeatedLs(bigFs, big.stores));
    if ((await bigFs.ls(bigBatch[0])).length !== 10) throw new Error("not 10");
  }
  console.log(
    "\n## ls of a 10-child directory through RepoFs.ls (µs per call, medians)\n",
  );
  const firstRatio = median(big.first) / median(small.first);
  const againRatio = median(big.again) / median(small.again);
  const firstGcRatio = gc ? median(big.firstGc) / median(small.firstGc) : NaN;
  printTable(
    ["", "1k table", "1M table", "1M / 1k", "target <= 2"],
    [
      [
        `first ls (sorts the children) as built, batches of ${BATCH} distinct dirs: ${small.first.length} / ${big.first.length} batches`,
        us(median(small.first)),
        us(median(big.first)),
        `**${firstRatio.toFixed(2)}**`,
        firstRatio <= 2 ? "met" : "NOT met",
      ],
      [
        `first ls after a full gc, batches of ${BATCH} distinct dirs: ${small.firstGc.length} / ${big.firstGc.length} batches`,
        small.firstGc.length ? us(median(small.firstGc)) : "n/a",
        big.firstGc.length ? us(median(big.firstGc)) : "n/a",
        small.firstGc.length ? `**${firstGcRatio.toFixed(2)}**` : "n/a",
        firstGcRatio <= 2 ? "met" : "NOT met",
      ],
      [
        `repeated ls of the same ${BATCH} dirs, alternated: ${small.again.length} / ${big.again.length} samples of ${CALLS} calls`,
        us(median(small.again)),
        us(median(big.again)),
        `**${againRatio.toFixed(2)}**`,
        againRatio <= 2 ? "met" : "NOT met",
      ],
      [
        `(info) repeated ls cycling over all ${big.stores.length} stores of the 1M table`,
        "—",
        us(median(big.cycle)),
        "—",
        "",
      ],
    ],
  );
}

// ---------------------------------------------------------------------------
// 3. glob("**/.zarray") over 100k entries through a real RepoFs whose table
//    came from the emulator's endpoint 2.
// ---------------------------------------------------------------------------
console.error(`(ls section: ${ms((now() - lsStart) / 1000)} s)`);
const globStart = now();
if (want("glob")) {
  const n = 100_000;
  const layout = zarrLayout(n);
  const files: Record<string, string> = {};
  for (const file of layout.files) files[pathOf(file)] = "{}";
  let t = now();
  await using emu = await startEmulator({ files });
  const startMs = now() - t;
  const fs = new RepoFs({ host: emu.host, pid: emu.pid });
  t = now();
  await fs.exists("README.md");
  const listingMs = now() - t;
  const allKeys = await fs.find("");
  const globMs: number[] = [];
  const findMs: number[] = [];
  const flatMs: number[] = [];
  const zarray = /(^|\/)\.zarray$/;
  for (let r = 0; r < 15; r++) {
    settle();
    t = now();
    const found = await fs.glob("**/.zarray");
    globMs.push(now() - t);
    if (found.length !== layout.zarrays) {
      throw new Error(`glob found ${found.length}, expected ${layout.zarrays}`);
    }
    settle();
    t = now();
    await fs.find("");
    findMs.push(now() - t);
    settle();
    t = now();
    allKeys.filter((k) => zarray.test(k));
    flatMs.push(now() - t);
  }
  console.log(
    `\n## glob("**/.zarray") over ${
      n.toLocaleString("en")
    } entries (ms per call, medians of 15)\n`,
  );
  console.log(
    `emulator start ${
      ms(startMs)
    } ms; first RepoFs call (HTTP listing + parse + build) ${
      ms(listingMs)
    } ms; ${layout.zarrays} matches\n`,
  );
  printTable(["call", "ms", "vs glob"], [
    ['fs.glob("**/.zarray")', ms(median(globMs)), "1.00"],
    [
      'fs.find("") (all files, sorted)',
      ms(median(findMs)),
      (median(findMs) / median(globMs)).toFixed(2),
    ],
    [
      "regex filter of a pre-sorted key array (lower bound)",
      ms(median(flatMs)),
      (median(flatMs) / median(globMs)).toFixed(2),
    ],
  ]);
}
console.error(`(glob section: ${ms((now() - globStart) / 1000)} s)`);
